/**
 * The switches every Chromium this project launches starts with: the worker's renderer, the
 * dashboard's browser tests and the benchmark's bare baseline, so the baseline differs from the
 * worker only by what the worker adds. No sandbox (containers run it unprivileged), no GPU, no
 * QUIC (nothing may try UDP), and none of the background traffic (updates, sync, first-run)
 * that on a closed network only hangs or retries.
 */
export const CHROMIUM_BASE_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
