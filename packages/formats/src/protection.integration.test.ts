import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  encryptedDoc,
  encryptedPpt,
  flatPresentation,
  flatTextDocument,
  officeEncryptedFile,
  officeFile,
} from '@xt/testkit/fixtures';
import { detectFormat } from './detect.ts';
import { isPasswordProtected } from './protection.ts';

const DOCUMENT = flatTextDocument({ paragraphs: ['Total 12.00 EUR'] });
const DECK = flatPresentation([{ title: 'Revenue 4.2 M EUR' }]);

describe('isPasswordProtected', () => {
  it('knows Office’s wrapper around an encrypted package by its structure', async () => {
    const wrapped = officeEncryptedFile();
    expect(await detectFormat({ bytes: wrapped })).toEqual({ format: 'office-encrypted' });
    expect(isPasswordProtected(wrapped, 'office-encrypted')).toBe(true);
  });

  it('reads the encryption flags of Word and PowerPoint 97–2003 files', async () => {
    const [doc, ppt] = await Promise.all([officeFile(DOCUMENT, 'doc'), officeFile(DECK, 'ppt')]);
    expect(isPasswordProtected(doc, 'doc')).toBe(false);
    expect(isPasswordProtected(ppt, 'ppt')).toBe(false);
    const [lockedDoc, lockedPpt] = await Promise.all([encryptedDoc(), encryptedPpt(DECK)]);
    expect(await detectFormat({ bytes: lockedDoc })).toEqual({ format: 'doc' });
    expect(isPasswordProtected(lockedDoc, 'doc')).toBe(true);
    expect(await detectFormat({ bytes: lockedPpt })).toEqual({ format: 'ppt' });
    expect(isPasswordProtected(lockedPpt, 'ppt')).toBe(true);
  }, 300_000);

  it('counts OOXML, OpenDocument and RTF files LibreOffice wrote as readable', async () => {
    for (const to of ['docx', 'odt', 'rtf'] as const)
      expect(isPasswordProtected(await officeFile(DOCUMENT, to), to), to).toBe(false);
    for (const to of ['pptx', 'odp'] as const)
      expect(isPasswordProtected(await officeFile(DECK, to), to), to).toBe(false);
  }, 300_000);

  it('finds an OpenDocument manifest that lists encryption', async () => {
    const odt = await officeFile(DOCUMENT, 'odt');
    // The manifest's own words, as LibreOffice writes them for a file saved with a password.
    const { unzipSync, zipSync } = await import('fflate');
    const entries = unzipSync(odt);
    const manifest = Buffer.from(entries['META-INF/manifest.xml']!).toString('utf8');
    entries['META-INF/manifest.xml'] = Buffer.from(
      manifest.replace(
        /(<manifest:file-entry manifest:full-path="content.xml"[^>]*?)\/>/,
        '$1><manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="x"/></manifest:encryption-data></manifest:file-entry>',
      ),
    );
    expect(isPasswordProtected(zipSync(entries), 'odt')).toBe(true);
  }, 300_000);
});

// Real files when the shared corpus is beside the checkout; never copied into the project.
const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus/office');

describe.skipIf(!existsSync(corpus))('isPasswordProtected on real office files', () => {
  it('finds the password-protected ones and only those', async () => {
    for (const name of readdirSync(corpus)) {
      const bytes = readFileSync(path.join(corpus, name));
      const { format } = await detectFormat({ bytes });
      if (!format) continue;
      expect(isPasswordProtected(bytes, format), name).toBe(/protected/.test(name));
    }
  });
});
