/**
 * The switches every Chromium this project launches starts with: the worker's renderer, the
 * dashboard's browser tests and the benchmark's bare baseline, so the baseline differs from the
 * worker only by what the worker adds. No GPU, no QUIC (nothing may try UDP), and none of the
 * background traffic (updates, sync, first-run) that on a closed network only hangs or retries.
 *
 * The sandbox is not a switch here: Playwright adds `--no-sandbox` unless a launch asks for
 * `chromiumSandbox: true`. Browsers that load only the project's own pages (tests, benchmarks)
 * keep that default; the worker's renderer, which loads pages anyone chose, turns the sandbox on
 * where the kernel allows it (docs/security.md#browser-isolation).
 */
export const CHROMIUM_BASE_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
