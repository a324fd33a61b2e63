/**
 * Documents with tracked changes through the real converter and PDF reader: read as they stand
 * with their changes accepted (deleted text is not the document's text), and said so.
 */
import { describe, expect, it } from 'vitest';
import { REDLINE_ACCEPTED, REDLINE_DELETED, redlinedDocx, redlinedOdt } from '@xt/testkit/fixtures';
import { textDocumentReader, textOf } from './test-reader.ts';

const reader = textDocumentReader(process.env);

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
