/**
 * The document reader the integration tests of one document run through: the real converter
 * (one LibreOffice at a time, a generous deadline for a loaded machine) and the PDF text layer.
 * Not used by the service, which builds its reader from the worker's settings (handlers.ts).
 */
import type { ContentPart, FormatName, PreparedSource } from '@xt/contract';
import { preparePdf } from '../pdf/prepare-pdf.ts';
import { createDocumentConverter } from './converter/converter.ts';
import { createDocumentReader, readConverted } from './prepare-document.ts';

/** `environment`: what LibreOffice may see of the test's environment (the converter filters it). */
export function textDocumentReader(environment: Readonly<Record<string, string | undefined>>) {
  const reader = createDocumentReader({
    converter: createDocumentConverter({
      memoryMb: 2048,
      timeoutMs: 180_000,
      concurrency: 1,
      environment,
    }),
    archive: { maxExpandedBytes: 100 * 1024 * 1024, maxEntries: 10_000, maxRatio: 200 },
  });
  return {
    ...reader,
    /** Converted, then its PDF read for its text layer, as the worker's `document` kind is. */
    async prepareDocumentBytes(
      bytes: Uint8Array,
      format: FormatName,
      opts: { model: string; signal: AbortSignal },
    ): Promise<PreparedSource> {
      const converted = await reader.convertDocumentBytes(bytes, format, opts.signal);
      return readConverted(converted, (pdf, laidOut) =>
        preparePdf(pdf, {
          model: opts.model,
          mode: 'text',
          maxPages: 10,
          maxImagePages: 10,
          maxImagePixels: 50_000_000,
          converted: laidOut,
        }),
      );
    },
  };
}

/** The text parts of a prepared source, one after another. */
export const textOf = (parts: ContentPart[]) =>
  parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n');
