/** Where the progress bar is drawn: a terminal stream. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * A one-line progress bar redrawn in place. Written here, not taken from a library, because the
 * SDK has no runtime dependencies for a dozen lines; nothing is drawn unless the stream is a
 * terminal, so piped and CI output stays clean.
 */
export function progressBar(stream: ProgressStream, label: string) {
  const enabled = stream.isTTY === true;
  const started = Date.now();
  return {
    update(done: number, total: number): void {
      if (!enabled) return;
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - label.length - 30));
      const filled = total === 0 ? width : Math.round((done / total) * width);
      const seconds = Math.round((Date.now() - started) / 1000);
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${seconds}s`,
      );
    },
    finish(): void {
      if (enabled) stream.write('\r\x1b[2K');
    },
  };
}
