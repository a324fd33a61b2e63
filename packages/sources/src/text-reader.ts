import type { PreparedSource } from '@xt/contract';
import type { PrepPool } from './prep-pool/index.ts';
import { prepareTextBytes } from './text.ts';

/** Plain text up to this size is prepared on the main loop (well under a millisecond). */
const INLINE_TEXT_BYTES = 64 * 1024;

const noMarkdown = (): string => {
  throw new Error('plain text has no markup to convert');
};

/**
 * How the kinds read as text (`text`, `markdown`) are read. Text is read in a prep process too:
 * an uploaded HTML file is parsed there (statically, nothing in it runs), and a source that
 * defeats a parser costs a process, not the loop. Short plain text, the commonest source, is not
 * parsed (one linear scan for blank lines): it is prepared here, since handing it to a process
 * and back cost more than the scan. Markdown's front matter is YAML, parsed: always in a process.
 */
export function createTextReader(pool: PrepPool, timeoutMs: number) {
  return async (
    bytes: Buffer,
    contentType: string | null,
    citations?: boolean,
    frontMatter?: true,
  ): Promise<PreparedSource> =>
    contentType !== 'text/html' && !frontMatter && bytes.length <= INLINE_TEXT_BYTES
      ? prepareTextBytes(bytes, contentType, noMarkdown, citations)
      : pool.runPrep({ kind: 'text', bytes, contentType, citations, frontMatter }, { timeoutMs });
}
