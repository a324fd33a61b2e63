import { describe, expect, it } from 'vitest';
import { decodeTextString, scanContent, type Mark } from './content-marks.ts';

function scan(content: string | Buffer) {
  const marks: Mark[] = [];
  const painted: string[] = [];
  scanContent(typeof content === 'string' ? Buffer.from(content, 'latin1') : content, {
    mark: (m) => marks.push(m),
    paint: (x) => painted.push(x),
  });
  return { marks, painted };
}

describe('scanContent', () => {
  it('lists each marked-content sequence begun, with its ActualText, in order', () => {
    const { marks } = scan(
      '/P BMC /Span <</ActualText <FEFF8ACB>>> BDC (x) Tj EMC /Span <</Lang (ja)>> BDC EMC ' +
        '/Span << /ActualText (fi) /E (ignored) >> BDC EMC /OC /oc1 BDC EMC EMC',
    );
    expect(marks).toEqual([
      { actualText: null },
      { actualText: '請' },
      { actualText: null },
      { actualText: 'fi' },
      { properties: 'oc1' },
    ]);
  });

  it('does not take operators inside strings, comments or inline images for marks', () => {
    const image = Buffer.concat([
      Buffer.from('BI /W 4 /H 1 /BPC 8 /CS /G ID '),
      Buffer.from('BDC\x00EMC', 'latin1'),
      Buffer.from(' EI /Span <</ActualText (a\\) \\(b\\051)>> BDC EMC'),
    ]);
    expect(scan(image).marks).toEqual([{ actualText: 'a) (b)' }]);
    expect(scan('(a (nested) BDC) Tj % /X BDC\n[(BMC) 3 (EMC)] TJ <42444320> Tj').marks).toEqual(
      [],
    );
  });

  it('tells which XObjects are painted, by name', () => {
    expect(scan('q 1 0 0 1 0 0 cm /Fm#201 Do Q /Im2 Do').painted).toEqual(['Fm 1', 'Im2']);
  });
});

describe('decodeTextString', () => {
  it('reads UTF-16BE and UTF-8 by their byte-order marks, else Latin-1', () => {
    expect(decodeTextString(Buffer.from('feff8acb6c42', 'hex'))).toBe('請求');
    expect(decodeTextString(Buffer.from('efbbbfe8ab8b', 'hex'))).toBe('請');
    expect(decodeTextString(Buffer.from('caf\xe9', 'latin1'))).toBe('café');
  });
});
