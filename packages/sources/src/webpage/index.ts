/**
 * Webpage sources: renders a URL in a sandboxed Chromium and turns what it shows into Markdown.
 * Folders by job: browser/ runs Chromium, egress/ guards what pages may reach, page/ renders one
 * URL, markdown/ turns the DOM into Markdown; renderer.ts ties them together per process.
 */
export {
  createWebpageRenderer,
  type WebpageRenderer,
  type WebpageRendererOptions,
} from './renderer.ts';
export type { RenderedWebpage } from './types.ts';
export { ChromiumLauncher, type BrowserIsolation } from './browser/index.ts';
export type { WebpageLogger } from './logger.ts';
export {
  htmlToMarkdown,
  documentHeader,
  splitSections,
  type ExtractedMarkdown,
  type HtmlToMarkdownOptions,
} from './markdown/index.ts';
