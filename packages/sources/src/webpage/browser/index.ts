/** Runs Chromium for the renderer: one shared browser per process, recycled and replaced on crash. */
export {
  BrowserHost,
  browserRssBytes,
  type BrowserHostOptions,
  type BrowserLease,
} from './browser-host.ts';
export { CHROMIUM_ARGS } from './chromium-args.ts';
export { ChromiumLauncher, type BrowserIsolation } from './launcher.ts';
