import type { Citations, ExtractionWarning, ImagesAsText, PreparedSource } from '@xt/contract';
import { buildCitations } from './citations.ts';

/** Ungrounded pointers named in the warning's message; the citations list every one. */
const POINTERS_NAMED = 10;

/** What the model layer answered, as far as grounding reads it (the model's ExtractResult). */
export interface ModelAnswer {
  output: unknown;
  /** Pointers of lists the model's output limit may have cut short. */
  truncated: readonly string[];
  annotations: {
    /** The model's verbatim quotes by pointer, checked against the source before use. */
    quotes: Map<string, string>;
    /** The model's own probability per leaf pointer, where its answer carried logprobs. */
    probabilities?: Map<string, number> | null | undefined;
  };
  /**
   * The model cannot give token probabilities (its server takes no `logprobs`): confidence then
   * comes from grounding alone (confidenceFromGrounding), rather than being null.
   */
  noTokenProbabilities?: boolean | undefined;
}

export interface GroundedOutput {
  /** null when citations were not asked for */
  citations: Citations | null;
  /** null when there is nothing to warn about */
  warnings: ExtractionWarning[] | null;
}

/**
 * What is stored beside an output (docs/citations.md): the service's own check of every value
 * against the source as read, when asked for, and what it knows it left undone.
 */
export function groundOutput(
  result: ModelAnswer,
  source: PreparedSource,
  citationsRequested: boolean,
): GroundedOutput {
  const warnings: ExtractionWarning[] = result.truncated.map((path) => ({
    code: 'OUTPUT_TRUNCATED',
    path,
    message: `The answer reached the model's output limit again after every continuation; the list at "${path}" may be missing items at its end.`,
  }));
  if (source.truncated)
    warnings.push({ code: 'SOURCE_TRUNCATED', path: '', message: source.truncated.message });
  // Warned with or without citations: OCR misreads what a model looking at the image would not.
  if (source.imagesAsText) warnings.push(imagesAsTextWarning(source.imagesAsText));
  if (source.revisions)
    warnings.push({ code: 'REVISIONS_ACCEPTED', path: '', message: source.revisions.message });
  let citations: Citations | null = null;
  if (citationsRequested) {
    const built = buildCitations({
      output: result.output,
      // A source read without anything to locate in (an image before OCR) grounds nothing.
      source: source.grounding ?? { kind: 'plain', text: '' },
      quotes: result.annotations.quotes,
      probabilities: result.annotations.probabilities ?? null,
      groundingOnly: result.noTokenProbabilities === true,
    });
    citations = built.citations;
    if (built.ungrounded.length > 0) warnings.push(ungroundedWarning(built.ungrounded));
  }
  return { citations, warnings: warnings.length > 0 ? warnings : null };
}

function ungroundedWarning(pointers: string[]): ExtractionWarning {
  const named = pointers.slice(0, POINTERS_NAMED).join(', ');
  const more =
    pointers.length > POINTERS_NAMED ? ` and ${pointers.length - POINTERS_NAMED} more` : '';
  return {
    code: 'UNGROUNDED_VALUES',
    path: pointers.length === 1 ? (pointers[0] ?? '') : '',
    message: `${pointers.length === 1 ? '1 value was' : `${pointers.length} values were`} found nowhere in the source: ${named}${more}.`,
  };
}

const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function imagesAsTextWarning({ pages, images, leftOut }: ImagesAsText): ExtractionWarning {
  const read = [pages > 0 && counted(pages, 'page'), images > 0 && counted(images, 'image')]
    .filter(Boolean)
    .join(' and ');
  const sentences = ['The model takes no images:'];
  if (read)
    sentences.push(
      `${read} ${pages + images === 1 ? 'was' : 'were'} read with OCR and sent as text.`,
    );
  if (leftOut > 0)
    sentences.push(`${counted(leftOut, 'image')} ${leftOut === 1 ? 'was' : 'were'} left out.`);
  return { code: 'IMAGES_READ_AS_TEXT', path: '', message: sentences.join(' ') };
}
