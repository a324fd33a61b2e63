import { describe, expect, it } from 'vitest';
import { requestFingerprint } from './fingerprint.ts';

const hex = (b: Buffer) => b.toString('hex');

describe('requestFingerprint', () => {
  it('ignores top-level field order and absent fields, but not the route or nested order', () => {
    const a = requestFingerprint('/schemas', { name: 'n', structure: { a: 1, b: 2 } });
    expect(
      hex(requestFingerprint('/schemas', { structure: { a: 1, b: 2 }, name: 'n', x: undefined })),
    ).toBe(hex(a));
    expect(
      hex(requestFingerprint('/extractions', { name: 'n', structure: { a: 1, b: 2 } })),
    ).not.toBe(hex(a));
    expect(hex(requestFingerprint('/schemas', { name: 'n', structure: { b: 2, a: 1 } }))).not.toBe(
      hex(a),
    );
  });

  it('counts a file by its digest: passed in, or computed from bytes in the fields', () => {
    const fields = { type: 'pdf', source: 'a.pdf' };
    const one = requestFingerprint('/extractions', fields, 'aa');
    expect(hex(requestFingerprint('/extractions', fields, 'aa'))).toBe(hex(one));
    expect(hex(requestFingerprint('/extractions', fields, 'bb'))).not.toBe(hex(one));
    const bytes = (s: string) =>
      requestFingerprint('/extractions', { ...fields, file: Buffer.from(s) });
    expect(hex(bytes('same'))).toBe(hex(bytes('same')));
    expect(hex(bytes('same'))).not.toBe(hex(bytes('other')));
  });
});
