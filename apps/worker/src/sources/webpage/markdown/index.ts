/** DOM → Markdown: the extractor that runs inside the page, and the Node-side finishing of its output. */
export { extractScript, type PageSnapshot } from './extract-in-page.ts';
export {
  DEFAULT_SECTIONS,
  documentHeader,
  dropRepeatedBlocks,
  nonWhitespaceChars,
  splitBlocks,
  splitSections,
  type SectionOptions,
} from './finish.ts';
