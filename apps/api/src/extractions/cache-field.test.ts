import { describe, expect, it } from 'vitest';
import { parseCache } from './cache-field.ts';

describe('parseCache in JSON bodies', () => {
  it('takes absent and true as the default, false as off, and an age in seconds', () => {
    expect(parseCache({}, false)).toEqual({ cache: undefined, errors: [] });
    expect(parseCache({ cache: true }, false)).toEqual({ cache: undefined, errors: [] });
    expect(parseCache({ cache: false }, false)).toEqual({ cache: false, errors: [] });
    expect(parseCache({ cache: { maxAge: 0 } }, false)).toEqual({
      cache: { maxAge: 0 },
      errors: [],
    });
    expect(parseCache({ cache: { maxAge: 3600 } }, false).cache).toEqual({ maxAge: 3600 });
  });

  it('names the field of anything else', () => {
    for (const cache of ['false', 0, null, [], 'yes'])
      expect(parseCache({ cache }, false).errors).toEqual([
        { field: 'cache', message: expect.stringContaining('maxAge') },
      ]);
    for (const maxAge of [-1, 1.5, '60', 2 ** 31, null])
      expect(parseCache({ cache: { maxAge } }, false).errors[0]?.field).toBe('cache.maxAge');
    expect(parseCache({ cache: { max_age: 5 } }, false).errors[0]?.field).toBe('cache.max_age');
  });
});

describe('parseCache in forms', () => {
  it('reads cache=false and cache_max_age', () => {
    expect(parseCache({ cache: 'false' }, true)).toEqual({ cache: false, errors: [] });
    expect(parseCache({ cache: 'true' }, true)).toEqual({ cache: undefined, errors: [] });
    expect(parseCache({ cache_max_age: '600' }, true)).toEqual({
      cache: { maxAge: 600 },
      errors: [],
    });
    expect(parseCache({ cache_max_age: '' }, true)).toEqual({ cache: undefined, errors: [] });
  });

  it('refuses bad values, repeats and a contradiction, naming the field', () => {
    expect(parseCache({ cache: 'no' }, true).errors[0]?.field).toBe('cache');
    expect(parseCache({ cache: ['false', 'false'] }, true).errors[0]?.message).toContain('once');
    expect(parseCache({ cache_max_age: '-5' }, true).errors[0]?.field).toBe('cache_max_age');
    expect(parseCache({ cache_max_age: 'soon' }, true).errors[0]?.field).toBe('cache_max_age');
    expect(parseCache({ cache: 'false', cache_max_age: '60' }, true).errors).toEqual([
      { field: 'cache_max_age', message: 'cache_max_age cannot be given with cache=false' },
    ]);
  });
});
