import type { PreparedSource } from '@xt/contract';
import { extract, type ExtractResult } from '@xt/model';
import type { ModelAccessed } from './model-access.ts';
import type { ExtractionRow } from './lifecycle.ts';

type ExtractRow = Pick<
  ExtractionRow,
  'model' | 'schemaStructure' | 'instruction' | 'citationsRequested'
>;

/** The model's answer for the prepared source, shaped by the row's schema snapshot. */
export function extractStep(
  model: ModelAccessed,
  row: ExtractRow,
  source: PreparedSource,
  signal: AbortSignal,
  {
    onPagesDone,
    window,
  }: {
    onPagesDone?: (pagesDone: number) => void;
    /** One page window of a long document (job/windows/): its answer is a piece of the whole. */
    window?: { index: number; count: number };
  } = {},
): Promise<ExtractResult> {
  return extract({
    client: model.client,
    capabilities: model.capabilities,
    onCapabilitiesLearned: model.learned,
    model: row.model,
    structure: row.schemaStructure,
    source,
    instruction: row.instruction ?? undefined,
    signal,
    citations: row.citationsRequested,
    onPagesDone,
    window,
  });
}
