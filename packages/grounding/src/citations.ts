import type { Citation, Citations, GroundingSource } from '@xt/contract';
import { isNoValue } from './item-fields.ts';
import { placeOutput } from './placement.ts';
import { leaves } from './pointer.ts';
import { indexSource, isSourceIndex, type SourceIndex } from './source-index.ts';

/**
 * How much an ungrounded value's probability is lowered. The model is as sure of what it invents
 * as of what it copies, so its token probability alone overrates such values; halving keeps the
 * model's own doubt visible (a doubtful ungrounded value stays below a confident one) while no
 * ungrounded value can rate above 0.5.
 */
export const UNGROUNDED_FACTOR = 0.5;

/**
 * Confidence from grounding alone, for a model whose server gives no token probabilities
 * (docs/models.md): a value the service found in the source is far more often right than one it
 * found nowhere, and that is all these two figures say. They are not calibrated per model; a
 * model with log-probabilities gets its own figure per value instead.
 */
export const GROUNDED_ONLY_CONFIDENCE = 0.8;
export const UNGROUNDED_ONLY_CONFIDENCE = 0.2;

/**
 * OCR confidence (Tesseract's, 0–1, of the least sure word a quote covers) below which a value
 * found on OCR words is only an uncertain reading (`reading: "uncertain"`): the value is there
 * as read, but the reading may not be what the page says (docs/citations.md, "OCR readings").
 */
export const OCR_UNCERTAIN_BELOW = 0.75;

export function confidenceOf(
  probability: number | null | undefined,
  grounded: boolean,
): number | null {
  if (probability === null || probability === undefined || !Number.isFinite(probability))
    return null;
  const p = Math.min(1, Math.max(0, probability));
  return grounded ? p : p * UNGROUNDED_FACTOR;
}

/**
 * One citation per leaf of `output` that has a value (not null, not an empty string);
 * `quotes` and `probabilities` keyed by pointer into `output`. The source is indexed once for
 * all values, and the values are placed together (placement.ts): an array's items in document
 * order, the values of one item on its row.
 */
export function buildCitations(input: {
  output: unknown;
  source: GroundingSource | SourceIndex;
  quotes?: Map<string, string> | null;
  probabilities?: Map<string, number> | null;
  /** no token probabilities can come (the model's server takes no logprobs): grounding alone */
  groundingOnly?: boolean;
}): { citations: Citations; ungrounded: string[] } {
  const index = isSourceIndex(input.source) ? input.source : indexSource(input.source);
  const placed = placeOutput(index, input.output, input.quotes ?? null);
  const citations: Citations = {};
  const ungrounded: string[] = [];
  for (const { pointer, value } of leaves(input.output)) {
    if (isNoValue(value)) continue;
    const located = placed.get(pointer) ?? null;
    const ocr = located?.ocrConfidence;
    const figure = input.probabilities
      ? confidenceOf(input.probabilities.get(pointer), located !== null)
      : input.groundingOnly
        ? located
          ? GROUNDED_ONLY_CONFIDENCE
          : UNGROUNDED_ONLY_CONFIDENCE
        : null;
    // A value found only on OCR words is no surer than their reading: the model's or the
    // grounding's figure, capped at the OCR engine's own (the lower of the two, not their
    // product: a model that read the same text or the same scan is not wrong independently).
    const confidence = figure !== null && ocr !== undefined ? Math.min(figure, ocr) : figure;
    const citation: Citation = located
      ? {
          grounded: true,
          quote: located.quote,
          page: located.page,
          boxes: located.boxes,
          start: located.start,
          end: located.end,
          confidence,
          ...(ocr === undefined ? {} : { ocrConfidence: ocr }),
          ...(ocr !== undefined && ocr < OCR_UNCERTAIN_BELOW
            ? { reading: 'uncertain' as const }
            : {}),
          ...(located.part === undefined ? {} : { part: located.part }),
          ...(located.sheet === undefined ? {} : { sheet: located.sheet, cell: located.cell }),
        }
      : { grounded: false, quote: null, page: null, boxes: [], start: null, end: null, confidence };
    citations[pointer] = citation;
    if (!located) ungrounded.push(pointer);
  }
  return { citations, ungrounded };
}
