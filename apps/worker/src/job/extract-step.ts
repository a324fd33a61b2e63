import type { PreparedSource } from '@xt/contract';
import { extract, type ExtractResult } from '@xt/model';
import type { ModelAccessed } from './model-access.ts';
import type { ExtractionRow } from './lifecycle.ts';

type ExtractRow = Pick<
  ExtractionRow,
  'model' | 'schemaStructure' | 'instruction' | 'citationsRequested'
>;

/**
 * What the row asks of the model, as `extract` takes it: the model, the schema snapshot's
 * structure, the instruction and whether citations are wanted. Every call made for a row (one
 * job's, a window's, a batch round's) asks it this way.
 */
export function rowRequest(row: ExtractRow) {
  return {
    model: row.model,
    structure: row.schemaStructure,
    instruction: row.instruction ?? undefined,
    citations: row.citationsRequested,
  };
}

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
    ...rowRequest(row),
    source,
    signal,
    onPagesDone,
    window,
  });
}
