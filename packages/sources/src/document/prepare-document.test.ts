/**
 * What the document reader refuses before LibreOffice is started: expansion bombs and damaged
 * archives (docs/sources.md#documents-and-presentations). A stand-in converter records whether
 * it was asked; the archives are built byte by byte, as no office program writes them.
 */
import { describe, expect, it } from 'vitest';
import { failureOf } from '@xt/testkit';
import { deflatedZeros, expansionBomb, zipArchive } from '@xt/testkit/fixtures';
import { createDocumentReader } from './prepare-document.ts';
import type { DocumentFormat } from './export-filter.ts';

const MiB = 1024 * 1024;
const archive = { maxExpandedBytes: 100 * MiB, maxEntries: 10_000, maxRatio: 200 };

function reader() {
  const converted: DocumentFormat[] = [];
  const r = createDocumentReader({
    archive,
    converter: {
      convertToPdf: (_bytes, format) => {
        converted.push(format);
        return Promise.resolve(Buffer.from('%PDF-1.4'));
      },
    },
  });
  const read = (bytes: Buffer, format: DocumentFormat) =>
    r.convertDocumentBytes(bytes, format, AbortSignal.timeout(60_000));
  return { read, converted };
}

/** The smallest packages each format's reader would take: their manifests and one part. */
const PACKAGES: Record<'docx' | 'pptx' | 'odt' | 'odp', Buffer> = {
  docx: zipArchive([
    { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
    { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
  ]),
  pptx: zipArchive([
    { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
    { name: 'ppt/presentation.xml', data: Buffer.from('<p:presentation/>') },
  ]),
  odt: zipArchive([
    {
      name: 'mimetype',
      data: Buffer.from('application/vnd.oasis.opendocument.text'),
      stored: true,
    },
    { name: 'content.xml', data: Buffer.from('<office:document-content/>') },
  ]),
  odp: zipArchive([
    {
      name: 'mimetype',
      data: Buffer.from('application/vnd.oasis.opendocument.presentation'),
      stored: true,
    },
    { name: 'content.xml', data: Buffer.from('<office:document-content/>') },
  ]),
};

describe('createDocumentReader: archives measured before conversion', () => {
  it('converts an ordinary package', async () => {
    const { read, converted } = reader();
    for (const [format, bytes] of Object.entries(PACKAGES))
      await read(bytes, format as DocumentFormat);
    expect(converted).toEqual(['docx', 'pptx', 'odt', 'odp']);
  });

  it('refuses a 50 KB package that unzips to gigabytes, without converting it', async () => {
    const { read, converted } = reader();
    for (const [format, pkg] of Object.entries(PACKAGES)) {
      const bomb = expansionBomb(pkg);
      expect(bomb.length).toBeLessThan(60_000);
      const err = await failureOf(read(bomb, format as DocumentFormat));
      expect(err.code, format).toBe('SOURCE_TOO_LARGE');
      expect(err.message).toMatch(/^The document is an archive whose entry .* expands \d+ times/);
    }
    // The ratio allowed, the total declared by the directory stops it, before anything inflates.
    const spread = createDocumentReader({
      archive: { ...archive, maxRatio: 10_000 },
      converter: { convertToPdf: () => Promise.reject(new Error('converted')) },
    });
    const err = await failureOf(
      spread.convertDocumentBytes(
        expansionBomb(PACKAGES.docx),
        'docx',
        AbortSignal.timeout(60_000),
      ),
    );
    expect(err.message).toBe(
      'The document is an archive that expands to more than 100 MiB; at most that is accepted (MAX_ARCHIVE_EXPANDED_BYTES).',
    );
    expect(converted).toEqual([]);
  });

  it('refuses an archive of too many entries, without converting it', async () => {
    const { read, converted } = reader();
    const many = zipArchive(
      Array.from({ length: 10_001 }, (_, k) => ({
        name: `word/p${k}.xml`,
        data: Buffer.from('x'),
      })),
    );
    expect(await failureOf(read(many, 'docx'))).toMatchObject({
      code: 'SOURCE_TOO_LARGE',
      message: expect.stringMatching(/10,001 entries; at most 10,000 .*MAX_ARCHIVE_ENTRIES/),
    });
    expect(converted).toEqual([]);
  });

  it('fails a truncated or damaged package as unreadable, without converting it', async () => {
    const { read, converted } = reader();
    const truncated = PACKAGES.docx.subarray(0, Math.floor(PACKAGES.docx.length / 2));
    expect(await failureOf(read(Buffer.from(truncated), 'docx'))).toMatchObject({
      code: 'SOURCE_UNREADABLE',
      message: expect.stringMatching(/^The document is not a readable archive: /),
    });
    const liar = zipArchive([
      { name: 'ppt/slides/slide1.xml', deflated: deflatedZeros(4 * MiB), declaredSize: 1_000 },
    ]);
    expect(await failureOf(read(liar, 'pptx'))).toMatchObject({ code: 'SOURCE_UNREADABLE' });
    expect(converted).toEqual([]);
  });
});
