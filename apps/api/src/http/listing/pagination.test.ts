import { describe, expect, it } from 'vitest';
import { offsetFor, paginationMeta } from './pagination.ts';

describe('paginationMeta', () => {
  it('has exactly the fields of the interface, in its order', () => {
    expect(Object.keys(paginationMeta(25, 2, 10))).toEqual([
      'total',
      'perPage',
      'currentPage',
      'lastPage',
      'firstPage',
      'firstPageUrl',
      'lastPageUrl',
      'nextPageUrl',
      'previousPageUrl',
    ]);
  });

  it('describes a middle page', () => {
    expect(paginationMeta(25, 2, 10)).toEqual({
      total: 25,
      perPage: 10,
      currentPage: 2,
      lastPage: 3,
      firstPage: 1,
      firstPageUrl: '/?page=1',
      lastPageUrl: '/?page=3',
      nextPageUrl: '/?page=3',
      previousPageUrl: '/?page=1',
    });
  });

  it('has no previous page on page 1 and no next page on the last page', () => {
    const first = paginationMeta(25, 1, 10);
    expect(first.previousPageUrl).toBeNull();
    expect(first.nextPageUrl).toBe('/?page=2');
    const last = paginationMeta(25, 3, 10);
    expect(last.nextPageUrl).toBeNull();
    expect(last.previousPageUrl).toBe('/?page=2');
  });

  it('has one page, with no neighbours, when there is nothing', () => {
    expect(paginationMeta(0, 1, 10)).toEqual({
      total: 0,
      perPage: 10,
      currentPage: 1,
      lastPage: 1,
      firstPage: 1,
      firstPageUrl: '/?page=1',
      lastPageUrl: '/?page=1',
      nextPageUrl: null,
      previousPageUrl: null,
    });
  });

  it('rounds the last page up and keeps an exact fit exact', () => {
    expect(paginationMeta(30, 1, 10).lastPage).toBe(3);
    expect(paginationMeta(31, 1, 10).lastPage).toBe(4);
    expect(paginationMeta(1, 1, 100).lastPage).toBe(1);
    expect(paginationMeta(101, 1, 100).lastPageUrl).toBe('/?page=2');
  });

  it('past the last page: no next page, previous is the page before', () => {
    const meta = paginationMeta(25, 7, 10);
    expect(meta.currentPage).toBe(7);
    expect(meta.lastPage).toBe(3);
    expect(meta.nextPageUrl).toBeNull();
    expect(meta.previousPageUrl).toBe('/?page=6');
    expect(paginationMeta(0, 2, 10).previousPageUrl).toBe('/?page=1');
  });
});

describe('offsetFor', () => {
  it('skips the rows of the earlier pages', () => {
    expect(offsetFor(1, 10)).toBe(0);
    expect(offsetFor(2, 10)).toBe(10);
    expect(offsetFor(5, 7)).toBe(28);
  });
});
