import { ExtractionFailure } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { failureOf } from '@xt/testkit';
import { deflatedZeros, zipArchive } from '@xt/testkit/fixtures';
import { checkArchive, elementCounter, type ArchiveLimits } from './bounds.ts';

const LIMITS: ArchiveLimits = {
  maxExpandedBytes: 100 * 1024 * 1024,
  maxEntries: 10_000,
  maxRatio: 200,
};
const MiB = 1024 * 1024;

describe('checkArchive', () => {
  it('measures an ordinary archive and returns the entries asked for', async () => {
    const zip = zipArchive([
      { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.spreadsheet') },
      { name: 'META-INF/manifest.xml', data: Buffer.from('<manifest/>') },
      { name: 'content.xml', data: Buffer.from('<x>'.repeat(1000)) },
    ]);
    const report = await checkArchive(zip, 'spreadsheet', LIMITS, {
      keep: ['META-INF/manifest.xml'],
    });
    expect(report).toMatchObject({ entries: 3, expandedBytes: 46 + 11 + 3000 });
    expect(report.kept.get('META-INF/manifest.xml')).toBe('<manifest/>');
  });

  it('reads an archive with bytes past its end record, or a comment it leaves out, as Office does', async () => {
    const zip = zipArchive([{ name: 'ppt/presentation.xml', data: Buffer.from('<p/>') }]);
    // A stray newline after the end record, as a real presentation has.
    const trailing = Buffer.concat([zip, Buffer.from('\n')]);
    expect(await checkArchive(trailing, 'document', LIMITS)).toMatchObject({ entries: 1 });
    // The last two bytes are the comment's length: declare 3 bytes that are not there.
    const short = Buffer.from(zip);
    short.writeUInt16LE(3, short.length - 2);
    expect(await checkArchive(short, 'document', LIMITS)).toMatchObject({ entries: 1 });
    // A comment that is there is read as it is.
    const commented = Buffer.concat([short, Buffer.from('abc')]);
    expect(await checkArchive(commented, 'document', LIMITS)).toMatchObject({ entries: 1 });
  });

  it('refuses an entry that expands a thousandfold (a 20 KB file of 20 MB)', async () => {
    const bomb = zipArchive([
      { name: 'xl/worksheets/sheet1.xml', deflated: deflatedZeros(20 * MiB) },
    ]);
    expect(bomb.length).toBeLessThan(50_000);
    const err = await failureOf(checkArchive(bomb, 'spreadsheet', LIMITS));
    expect(err.code).toBe('SOURCE_TOO_LARGE');
    expect(err.message).toMatch(/expands \d+ times; at most 200 times/);
  });

  it('refuses an archive whose entries expand to gigabytes together, before inflating one', async () => {
    // 2,000 directory entries all pointing at one deflated megabyte of zeros: under 200 KB
    // declaring 2 GB. With the ratio allowed, the total stops it, read from the directory alone.
    const bomb = zipArchive([{ name: 'a.xml', deflated: deflatedZeros(1 * MiB) }], {
      repeatFirst: 2_000,
    });
    expect(bomb.length).toBeLessThan(200_000);
    const err = await failureOf(checkArchive(bomb, 'spreadsheet', { ...LIMITS, maxRatio: 10_000 }));
    expect(err.code).toBe('SOURCE_TOO_LARGE');
    expect(err.message).toMatch(/expands to more than 100 MiB/);
  });

  it('catches a directory that lies about what an entry expands to', async () => {
    const liar = zipArchive([
      { name: 'xl/sharedStrings.xml', deflated: deflatedZeros(5 * MiB), declaredSize: 1_000 },
    ]);
    const err = await failureOf(checkArchive(liar, 'spreadsheet', { ...LIMITS, maxRatio: 10_000 }));
    expect(err.code).toBe('SOURCE_UNREADABLE');
  });

  it('refuses an archive of too many entries, and one that is not an archive', async () => {
    const many = zipArchive(
      Array.from({ length: 50 }, (_, k) => ({ name: `f${k}.xml`, data: Buffer.from('x') })),
    );
    const err = await failureOf(checkArchive(many, 'spreadsheet', { ...LIMITS, maxEntries: 20 }));
    expect(err).toMatchObject({ code: 'SOURCE_TOO_LARGE' });
    expect(err.message).toMatch(/archive of 50 entries; at most 20/);
    const broken = await failureOf(
      checkArchive(Buffer.from('PK\x03\x04 not really'), 'spreadsheet', LIMITS),
    );
    expect(broken).toBeInstanceOf(ExtractionFailure);
    expect(broken.code).toBe('SOURCE_UNREADABLE');
  });

  it('counts elements in the entries asked for, and stops past the bound', async () => {
    const cells = '<row r="1">' + '<c r="A1"><v>1</v></c>'.repeat(5_000) + '</row>';
    const zip = zipArchive([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.from(cells) }]);
    const count = (max: number) => ({
      entries: /^xl\/worksheets\//,
      element: 'c',
      max,
      tooMany: () => new ExtractionFailure('SOURCE_TOO_LARGE', `more than ${max} cells`),
    });
    expect((await checkArchive(zip, 'spreadsheet', LIMITS, { count: count(10_000) })).counted).toBe(
      5_000,
    );
    const err = await failureOf(checkArchive(zip, 'spreadsheet', LIMITS, { count: count(4_999) }));
    expect(err.message).toBe('more than 4999 cells');
  });
});

describe('elementCounter', () => {
  it('counts start tags with or without a prefix, across chunk boundaries', () => {
    const count = elementCounter('c');
    const xml =
      '<cols><col min="1"/></cols><c r="A1"/><x:c r="B1">1</x:c><c>2</c><cfRule/><c\tr="C1"/>';
    // Every split point of the text: a tag cut anywhere is still counted once.
    for (let cut = 0; cut <= xml.length; cut++) {
      const counter = elementCounter('c');
      expect(counter(xml.slice(0, cut)) + counter(xml.slice(cut)), `cut at ${cut}`).toBe(4);
    }
    expect(count(xml)).toBe(4);
  });
});
