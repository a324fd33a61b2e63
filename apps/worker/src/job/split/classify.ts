import {
  ExtractionFailure,
  SPLIT_INSTRUCTION,
  SPLIT_PAGE_TEXT_CHARS,
  SPLIT_PAGES_KEY,
  splitPagesText,
  sumSpend,
  type ClassifiedPage,
  type ModelUsage,
  type Structure,
} from '@xt/contract';
import { extract, SourceDoesNotFit, type Capabilities } from '@xt/model';
import type { ModelAccessed } from '../model-access.ts';
import type { PageText } from './read-bundle.ts';

export interface Classification {
  pages: ClassifiedPage[];
  tokens: number;
  usage: ModelUsage;
  calls: number;
}

/** Consecutive chunks of at most `size` pages. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

function answeredPages(output: unknown): ClassifiedPage[] {
  const list = (output as Record<string, unknown> | null)?.[SPLIT_PAGES_KEY];
  if (!Array.isArray(list)) return [];
  return list.flatMap((p: unknown) => {
    if (p === null || typeof p !== 'object') return [];
    const { page, class: cls, startsDocument, confidence } = p as Record<string, unknown>;
    if (typeof page !== 'number' || typeof cls !== 'string') return [];
    return [
      {
        page,
        class: cls,
        startsDocument: startsDocument === true,
        confidence: typeof confidence === 'number' ? confidence : 0,
      },
    ];
  });
}

/** A classification's spend and answers so far, added to as each call settles. */
interface Tally {
  pages: ClassifiedPage[];
  spent: { tokens: number; usage: ModelUsage }[];
  calls: number;
  failure?: ExtractionFailure;
}

/** Fewest characters of a page's text worth classifying; a window too small for that fails. */
const MIN_PAGE_CHARS = 40;

/**
 * Classifies the bundle's pages (docs/split.md): chunks of at most `chunkPages` pages, each one
 * call of the structure stored on the parent (the classes as an enum, SPLIT_PAGES_KEY), all at
 * once through the model client's scheduler, which paces them against the endpoint's slots.
 *
 * Each chunk after the first is sent with the page before it, marked as context and not
 * classified again, so a page that continues a document across a chunk's edge is read as the
 * continuation it is. A chunk is one question, never cut in pieces: one that does not fit the
 * model's window (a server with a 4k window) is halved until it does, and a single page's text
 * is shortened from its end, keeping its title, so no page goes unclassified (never silently
 * short, docs/models.md). A chunk that fails fails the split, with every chunk's tokens counted.
 */
export async function classifyPages(
  model: ModelAccessed,
  request: {
    model: string;
    structure: Structure;
    classes: readonly { name: string; description?: string | undefined }[];
  },
  pages: readonly PageText[],
  chunkPages: number,
  signal: AbortSignal,
): Promise<Classification> {
  const tally: Tally = { pages: [], spent: [], calls: 0 };
  // What a call teaches (a server that kept less of the prompt than its window claimed) shapes
  // the halves sent after it, not only later jobs.
  let capabilities = model.capabilities;
  const learned = (taught: Capabilities) => {
    capabilities = taught;
    model.learned?.(taught);
  };

  const ask = async (chunk: readonly PageText[], before: PageText | undefined): Promise<void> => {
    const sent = before ? [before, ...chunk] : chunk;
    try {
      const answer = await extract({
        client: model.client,
        capabilities,
        onCapabilitiesLearned: learned,
        model: request.model,
        structure: request.structure,
        instruction: SPLIT_INSTRUCTION,
        source: {
          parts: [
            {
              kind: 'text',
              text: splitPagesText({
                classes: request.classes,
                pages: sent,
                context: before?.page,
              }),
            },
          ],
        },
        indivisible: true,
        signal,
      });
      tally.spent.push({ tokens: answer.totalTokens, usage: answer.usage });
      tally.calls += answer.calls;
      tally.pages.push(...answeredPages(answer.output).filter((p) => p.page !== before?.page));
    } catch (reason) {
      if (reason instanceof ExtractionFailure)
        tally.spent.push({ tokens: reason.tokens, usage: reason.usage });
      if (reason instanceof SourceDoesNotFit && !signal.aborted) return smaller(chunk, before);
      tally.failure ??=
        reason instanceof ExtractionFailure
          ? reason
          : new ExtractionFailure('INTERNAL', 'Classifying the bundle failed unexpectedly.', {
              retryable: true,
              cause: reason,
            });
    }
  };

  // Halves a chunk too large for one call; a single page loses its context page, then the end
  // of its text, until it fits.
  const smaller = async (chunk: readonly PageText[], before: PageText | undefined) => {
    if (chunk.length > 1) {
      const half = Math.ceil(chunk.length / 2);
      await Promise.all([
        ask(chunk.slice(0, half), before),
        ask(chunk.slice(half), chunk[half - 1]),
      ]);
      return;
    }
    if (before) return ask(chunk, undefined);
    const page = chunk[0]!;
    const text = page.text.slice(0, Math.min(page.text.length, SPLIT_PAGE_TEXT_CHARS) >> 1);
    if (text.trim().length < MIN_PAGE_CHARS) {
      const window = capabilities?.contextTokens;
      tally.failure ??= new ExtractionFailure(
        'MODEL_CONTEXT_TOO_SMALL',
        `The model's context window${window ? ` (${window} tokens)` : ''} cannot hold the split's classes and the first ${MIN_PAGE_CHARS} characters of page ${page.page}: shorten the classes' descriptions, use a model with a larger context, or raise it on the server (docs/models.md).`,
      );
      return;
    }
    return ask([{ ...page, text }], undefined);
  };

  const chunks = chunksOf(pages, chunkPages);
  await Promise.all(chunks.map((chunk, i) => ask(chunk, chunks[i - 1]?.at(-1))));
  const spent = sumSpend(tally.spent);
  if (tally.failure) {
    tally.failure.tokens = spent.tokens;
    tally.failure.usage = spent.usage;
    throw tally.failure;
  }
  return { pages: tally.pages, tokens: spent.tokens, usage: spent.usage, calls: tally.calls };
}
