import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { officeEncryptedFile, redlinedDocx, redlinedOdt, zipArchive } from '@xt/testkit/fixtures';
import { acceptTrackedChanges, acceptWordChanges } from './accept-changes.ts';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const textOf = (xml: string) =>
  [...xml.matchAll(/<(?:w:t|w:delText)\b[^>]*>([^<]*)</g)].map((m) => m[1]).join('');

describe('acceptWordChanges', () => {
  it('keeps inserted text and drops deleted text, moves included', () => {
    const { xml, changes } = acceptWordChanges(
      `<w:body ${W}><w:p><w:r><w:t>A </w:t></w:r><w:del w:id="1"><w:r><w:delText>old</w:delText></w:r></w:del><w:ins w:id="2"><w:r><w:t>new</w:t></w:r></w:ins>` +
        `<w:moveFrom w:id="3"><w:r><w:t>gone</w:t></w:r></w:moveFrom><w:moveToRangeStart w:id="4"/><w:moveTo w:id="5"><w:r><w:t> here</w:t></w:r></w:moveTo><w:moveToRangeEnd w:id="4"/></w:p></w:body>`,
    );
    expect(textOf(xml)).toBe('A new here');
    expect(xml).not.toMatch(/w:(ins|del|move)/);
    expect(changes).toBe(4);
  });

  it('drops a deleted row, a paragraph deleted whole, and formatting as it was before', () => {
    const { xml } = acceptWordChanges(
      `<w:body ${W}><w:tbl><w:tr><w:tc><w:p><w:r><w:t>kept</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:trPr><w:del w:id="1"/></w:trPr><w:tc><w:p><w:r><w:t>row</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
        `<w:p><w:pPr><w:rPr><w:del w:id="2"/></w:rPr></w:pPr><w:del w:id="3"><w:r><w:delText>para</w:delText></w:r></w:del></w:p>` +
        `<w:p><w:pPr><w:rPr><w:del w:id="4"/></w:rPr></w:pPr><w:r><w:t>joined</w:t></w:r></w:p>` +
        `<w:p><w:r><w:rPr><w:b/><w:rPrChange w:id="5"><w:rPr><w:i/></w:rPr></w:rPrChange></w:rPr><w:t>bold</w:t></w:r></w:p></w:body>`,
    );
    expect(textOf(xml)).toBe('keptjoinedbold');
    expect(xml.match(/<w:tr>/g)).toHaveLength(1);
    // The paragraph whose mark was deleted but whose text stays is kept.
    expect(xml.match(/<w:p>/g)).toHaveLength(3);
    expect(xml).toContain('<w:rPr><w:b/></w:rPr>');
    expect(xml).not.toContain('w:i/');
  });

  it('leaves a part without changes as it is', () => {
    const plain = `<?xml version="1.0"?><w:document ${W}><w:body><w:p><w:r><w:t a="x>y">1 &lt; 2</w:t></w:r></w:p></w:body></w:document>`;
    expect(acceptWordChanges(plain)).toEqual({ xml: plain, changes: 0 });
  });
});

describe('acceptTrackedChanges', () => {
  it('rewrites a DOCX with changes, every other part as it was', () => {
    const docx = redlinedDocx();
    const { bytes, changes } = acceptTrackedChanges(docx, 'docx');
    expect(changes).toBe(6);
    const before = unzipSync(docx);
    const after = unzipSync(bytes);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(after['_rels/.rels']).toEqual(before['_rels/.rels']);
    const text = textOf(strFromU8(after['word/document.xml']!));
    expect(text).toContain('Vendor: New Vendor GmbH');
    expect(text).not.toMatch(/Old Vendor|Penalty|X-7/);
  });

  it('drops an ODT’s deleted regions, mimetype still first and stored', () => {
    const { bytes, changes } = acceptTrackedChanges(redlinedOdt(), 'odt');
    expect(changes).toBe(3);
    expect(Buffer.from(bytes).subarray(30, 38).toString()).toBe('mimetype');
    const content = strFromU8(unzipSync(bytes)['content.xml']!);
    expect(content).not.toMatch(/Old Vendor|Penalty|text:change/);
    expect(content).toContain('Vendor: New Vendor GmbH');
  });

  it('returns a file without changes, or of another format, as the same bytes', () => {
    const plain = zipArchive([
      { name: 'word/document.xml', data: Buffer.from(`<w:document ${W}/>`) },
    ]);
    expect(acceptTrackedChanges(plain, 'docx').bytes).toBe(plain);
    const doc = officeEncryptedFile();
    expect(acceptTrackedChanges(doc, 'doc')).toEqual({ bytes: doc, changes: 0 });
    const damaged = Buffer.from('PK\x03\x04 not really a zip');
    expect(acceptTrackedChanges(damaged, 'docx').bytes).toBe(damaged);
  });
});
