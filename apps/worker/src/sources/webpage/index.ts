export {
  createWebpageRenderer,
  type WebpageRenderer,
  type WebpageRendererOptions,
  type RenderedWebpage,
} from './renderer.ts';
export { startFilteringProxy, type FilteringProxy, type TargetCheck } from './proxy.ts';
export type { ProxyRefusal, ProxySession } from './proxy-sessions.ts';
export type { WebpageLogger } from './logger.ts';
