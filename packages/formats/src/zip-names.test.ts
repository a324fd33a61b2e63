import { describe, expect, it } from 'vitest';
import { zipArchive } from '@xt/testkit/fixtures';
import { detectFormat } from './detect.ts';
import { zipEntryNames } from './zip-names.ts';

const MANIFEST = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const part = (name: string, text = '<x/>') => ({ name, data: Buffer.from(text) });
const word = [part('_rels/.rels'), part('word/document.xml'), part('word/styles.xml')];

describe('an Office file without a readable [Content_Types].xml', () => {
  it('lists the entry names in the archive’s first bytes, leaving out a cut header', () => {
    const zip = zipArchive(word);
    expect(zipEntryNames(zip)).toEqual(['_rels/.rels', 'word/document.xml', 'word/styles.xml']);
    const cut = zip.subarray(0, zip.indexOf('word/styles.xml') + 3);
    expect(zipEntryNames(cut)).toEqual(['_rels/.rels', 'word/document.xml']);
  });

  it('is recognised as a DOCX with its manifest, and named as a damaged one without', async () => {
    expect(
      await detectFormat({ bytes: zipArchive([part('[Content_Types].xml', MANIFEST), ...word]) }),
    ).toEqual({ format: 'docx' });
    const damaged = {
      format: null,
      found:
        "a ZIP archive with a Word document's parts but no readable [Content_Types].xml (a damaged DOCX file)",
    };
    expect(await detectFormat({ bytes: zipArchive(word) })).toEqual(damaged);
    expect(
      await detectFormat({
        bytes: zipArchive([part('[Content_Types].xml', 'garbage \u0000'), ...word]),
      }),
    ).toEqual(damaged);
  });

  it('names a workbook and a presentation by their folders, and any other archive as a ZIP', async () => {
    expect(await detectFormat({ bytes: zipArchive([part('xl/workbook.xml')]) })).toMatchObject({
      found: expect.stringContaining("an Excel workbook's parts") as unknown,
    });
    expect(await detectFormat({ bytes: zipArchive([part('ppt/presentation.xml')]) })).toMatchObject(
      {
        found: expect.stringContaining('(a damaged PPTX file)') as unknown,
      },
    );
    expect(await detectFormat({ bytes: zipArchive([part('notes/word/readme.txt')]) })).toEqual({
      format: null,
      found: 'a ZIP archive',
    });
  });
});
