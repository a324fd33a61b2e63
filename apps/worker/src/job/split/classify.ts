import {
  ExtractionFailure,
  SPLIT_INSTRUCTION,
  SPLIT_PAGES_KEY,
  splitPagesText,
  sumSpend,
  type ClassifiedPage,
  type ModelUsage,
  type Structure,
} from '@xt/contract';
import { extract } from '@xt/model';
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

/**
 * Classifies the bundle's pages (docs/split.md): chunks of at most `chunkPages` pages, each one
 * call of the structure stored on the parent (the classes as an enum, SPLIT_PAGES_KEY), all at
 * once through the model client's scheduler, which paces them against the endpoint's slots. A
 * chunk that fails fails the split, with every chunk's tokens counted.
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
  const settled = await Promise.allSettled(
    chunksOf(pages, chunkPages).map((chunk) =>
      extract({
        client: model.client,
        capabilities: model.capabilities,
        onCapabilitiesLearned: model.learned,
        model: request.model,
        structure: request.structure,
        instruction: SPLIT_INSTRUCTION,
        source: {
          parts: [
            { kind: 'text', text: splitPagesText({ classes: request.classes, pages: chunk }) },
          ],
        },
        signal,
      }),
    ),
  );
  const spent = sumSpend(
    settled.map((s) =>
      s.status === 'fulfilled'
        ? { tokens: s.value.totalTokens, usage: s.value.usage }
        : s.reason instanceof ExtractionFailure
          ? { tokens: s.reason.tokens, usage: s.reason.usage }
          : { tokens: 0, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 } },
    ),
  );
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) {
    const reason: unknown = failed.reason;
    const failure =
      reason instanceof ExtractionFailure
        ? reason
        : new ExtractionFailure('INTERNAL', 'Classifying the bundle failed unexpectedly.', {
            retryable: true,
            cause: reason,
          });
    failure.tokens = spent.tokens;
    failure.usage = spent.usage;
    throw failure;
  }
  const answers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  return {
    pages: answers.flatMap((a) => answeredPages(a.output)),
    tokens: spent.tokens,
    usage: spent.usage,
    calls: answers.reduce((n, a) => n + a.calls, 0),
  };
}
