/**
 * Documents with tracked changes through the real converter and PDF reader: read as they stand
 * with their changes accepted (deleted text is not the document's text), and said so.
 */
import { describe, expect, it } from 'vitest';
import type { ContentPart } from '@xt/contract';
import { REDLINE_ACCEPTED, REDLINE_DELETED, redlinedDocx, redlinedOdt } from '@xt/testkit/fixtures';
import { preparePdf } from '../pdf/prepare-pdf.ts';
import { createDocumentConverter } from './converter/converter.ts';
import { createDocumentReader } from './prepare-document.ts';

const reader = createDocumentReader({
  converter: createDocumentConverter({
    memoryMb: 2048,
    timeoutMs: 180_000,
    concurrency: 1,
    environment: process.env,
  }),
  archive: { maxExpandedBytes: 100 * 1024 * 1024, maxEntries: 10_000, maxRatio: 200 },
  readPdf: (pdf, opts, converted) =>
    preparePdf(pdf, {
      model: opts.model,
      mode: 'text',
      maxPages: 10,
      maxImagePages: 10,
      maxImagePixels: 50_000_000,
      converted,
    }),
});

const textOf = (parts: ContentPart[]) =>
  parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n');

describe('a document with tracked changes', () => {
  it.each([
    ['DOCX', 'docx', redlinedDocx, 6],
    ['ODT', 'odt', redlinedOdt, 3],
  ] as const)(
    'a %s reads as accepted, with a warning that says so',
    async (_, format, make, changes) => {
      const source = await reader.prepareDocumentBytes(make(), format, {
        model: 'gpt-4.1',
        signal: AbortSignal.timeout(300_000),
      });
      const text = textOf(source.parts);
      for (const line of REDLINE_ACCEPTED) expect(text).toContain(line);
      for (const gone of REDLINE_DELETED) expect(text).not.toContain(gone);
      expect(source.revisions?.message).toMatch(
        new RegExp(`^The document has tracked changes \\(${changes} .*accepted`),
      );
    },
    300_000,
  );
});
