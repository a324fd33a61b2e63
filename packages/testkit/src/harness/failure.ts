import { ExtractionFailure } from '@xt/contract';

/** Awaits work that must fail with an ExtractionFailure and returns it (anything else throws). */
export async function failureOf(work: Promise<unknown>): Promise<ExtractionFailure> {
  try {
    await work;
  } catch (err) {
    if (err instanceof ExtractionFailure) return err;
    throw err;
  }
  throw new Error('expected an ExtractionFailure, but the work succeeded');
}
