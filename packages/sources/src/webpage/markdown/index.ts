/**
 * DOM → Markdown. One extractor (extract.ts and the modules it uses) runs inside Chromium,
 * bundled by page-script.ts, and over HTML text parsed in Node by html.ts; finish.ts then drops
 * boilerplate and cuts the Markdown into sections.
 */
export {
  HtmlTooDeepError,
  htmlToMarkdown,
  MAX_HTML_DEPTH,
  type HtmlToMarkdownOptions,
} from './html.ts';
export type { ExtractedMarkdown } from './extract.ts';
export type { PageSnapshot } from './page-entry.ts';
export { loadPageScript, snapshotExpression } from './page-script.ts';
export {
  DEFAULT_SECTIONS,
  documentHeader,
  dropRepeatedBlocks,
  nonWhitespaceChars,
  splitBlocks,
  splitSections,
  type SectionOptions,
} from './finish.ts';
