import { describe, expect, it } from 'vitest';
import { sniffContentType } from './sniff.ts';
import { SAMPLES, bmp, bytes, ftyp } from '@xt/testkit/fixtures';

describe('sniffContentType', () => {
  it.each([
    ['application/pdf', SAMPLES.pdf],
    ['application/pdf', bytes('garbage before the header\r\n%PDF-1.4\n')],
    ['image/png', SAMPLES.png],
    ['image/jpeg', SAMPLES.jpeg],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe1, 0, 0], 'Exif')],
    ['image/gif', SAMPLES.gif],
    ['image/gif', bytes('GIF87a', [1, 0, 1, 0])],
    ['image/webp', SAMPLES.webp],
    ['image/tiff', bytes('II', [0x2a, 0, 8, 0, 0, 0])],
    ['image/tiff', bytes('MM', [0, 0x2a, 0, 0, 0, 8])],
    ['image/bmp', bmp(40)],
    ['image/bmp', bmp(124)],
    ['image/avif', ftyp('avif', ['mif1', 'miaf'])],
    ['image/avif', ftyp('mif1', ['avif', 'miaf'])],
    ['image/heic', ftyp('heic', ['mif1', 'heic'])],
    ['image/heic', ftyp('mif1', ['heic'])],
    ['image/svg+xml', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    [
      'image/svg+xml',
      bytes(
        [0xef, 0xbb, 0xbf],
        '<?xml version="1.0"?>\n<!-- drawn -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg>',
      ),
    ],
    ['text/html', bytes('<!DOCTYPE html><html><body>hi</body></html>')],
    ['text/html', bytes('\n\n  <HTML lang="en">')],
    ['text/html', bytes('<!-- comment --><div>x</div>')],
    ['text/html', bytes('<p>paragraph</p>')],
    [
      'text/html',
      bytes('<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml">'),
    ],
  ])('detects %s', (type, sample) => {
    expect(sniffContentType(sample)).toBe(type);
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['plain text', bytes('just some words')],
    ['JSON', bytes('{"a":1}')],
    ['a lone BM', bytes('BMW is a car maker and this is a sentence')],
    ['a truncated PNG signature', bytes([0x89, 0x50, 0x4e, 0x47])],
    ['an MP4 ftyp', ftyp('isom', ['iso2', 'mp41'])],
    ['a RIFF that is not WebP', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
    ['a ZIP', bytes('PK', [3, 4], Buffer.alloc(26))],
    ['an XML document that is not SVG', bytes('<?xml version="1.0"?><rss></rss>')],
    ['a tag that only starts like <b', bytes('<bogus>')],
  ])('returns null for %s', (_name, sample) => {
    expect(sniffContentType(sample)).toBeNull();
  });

  it('keeps HTML that quotes the PDF marker as HTML', () => {
    expect(sniffContentType(bytes('<html><body>A file starts with %PDF-1.7</body></html>'))).toBe(
      'text/html',
    );
  });

  it('ignores a PDF marker past the first KiB', () => {
    expect(sniffContentType(bytes(Buffer.alloc(1100, 0x20), '%PDF-1.7'))).toBeNull();
  });
});
