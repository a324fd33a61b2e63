/** Counts of a run, as the progress bar and the summary show them. */
export interface Tally {
  total: number;
  completed: number;
  failed: number;
  running: number;
  skipped: number;
  /** Pages finished and pages in all of the running extractions, as they report them. */
  pages?: { done: number; total: number };
}

const WIDTH = 30;

/**
 * A one-line progress bar redrawn in place on a terminal (`\r`); elsewhere (a pipe, a log file)
 * it draws nothing and only the final summary is printed.
 */
export class Progress {
  private readonly live: boolean;
  private readonly running = new Map<unknown, { pagesDone: number; pagesTotal: number }>();

  constructor(
    private readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
    readonly tally: Tally,
  ) {
    this.live = stream.isTTY === true;
  }

  /**
   * What one running extraction reports of its pages (`undefined` once it has ended): the bar
   * shows the sum over those running, so a long PDF is seen moving before it completes.
   */
  pages(key: unknown, progress: { pagesDone: number; pagesTotal: number } | undefined): void {
    if (progress) this.running.set(key, progress);
    else this.running.delete(key);
    let done = 0;
    let total = 0;
    for (const p of this.running.values()) {
      done += p.pagesDone;
      total += p.pagesTotal;
    }
    this.tally.pages = { done, total };
    this.draw();
  }

  draw(): void {
    if (this.live) this.stream.write(`\r${render(this.tally)}\u001b[K`);
  }

  finish(): void {
    if (this.live) this.stream.write('\n');
    const { completed, failed, skipped } = this.tally;
    this.stream.write(
      `${completed} completed, ${failed} failed, ${skipped} already in the output\n`,
    );
  }
}

/**
 * The bar counts every input, those an earlier run already wrote included: a resumed run starts
 * part-full and says how many it skipped, rather than counting only what is left (a run with
 * nothing left showed a full bar labelled "0/0").
 */
export function render(t: Tally): string {
  const done = t.skipped + t.completed + t.failed;
  const filled = t.total === 0 ? WIDTH : Math.round((done / t.total) * WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(WIDTH - filled);
  const skipped = t.skipped > 0 ? `  (${t.skipped} already in the output)` : '';
  const pages = t.pages && t.pages.total > 0 ? `  pages ${t.pages.done}/${t.pages.total}` : '';
  return `${bar} ${done}/${t.total}  ✓ ${t.completed}  ✗ ${t.failed}  running ${t.running}${pages}${skipped}`;
}
