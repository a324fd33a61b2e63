import { describe, expect, it } from 'vitest';
import { jsonPointer, leaves } from './index.ts';

describe('jsonPointer and leaves', () => {
  it('builds RFC 6901 pointers', () => {
    expect(jsonPointer([])).toBe('');
    expect(jsonPointer(['lines', 3, 'amount'])).toBe('/lines/3/amount');
    expect(jsonPointer(['a/b', 'm~n', ''])).toBe('/a~1b/m~0n/');
  });

  it('lists every non-null leaf in document order', () => {
    const output = {
      a: 1,
      b: null,
      c: [{ d: 'x', e: true }, null, 'y'],
      'f/g': { h: 0 },
      i: [],
      j: '',
    };
    expect([...leaves(output)]).toEqual([
      { pointer: '/a', value: 1 },
      { pointer: '/c/0/d', value: 'x' },
      { pointer: '/c/0/e', value: true },
      { pointer: '/c/2', value: 'y' },
      { pointer: '/f~1g/h', value: 0 },
      { pointer: '/j', value: '' },
    ]);
    expect([...leaves('whole')]).toEqual([{ pointer: '', value: 'whole' }]);
    expect([...leaves(null)]).toEqual([]);
  });
});
