import type { PaginationMeta } from '@xt/contract';

function pageUrl(page: number): string {
  return `/?page=${page}`;
}

/**
 * Builds `meta` for one page of a list. A page past the last is legal (it returns no rows):
 * it has no next page, and its previous page is simply the one before it, so a client that
 * overshot can walk back.
 */
export function paginationMeta(total: number, page: number, perPage: number): PaginationMeta {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  return {
    total,
    perPage,
    currentPage: page,
    lastPage,
    firstPage: 1,
    firstPageUrl: pageUrl(1),
    lastPageUrl: pageUrl(lastPage),
    nextPageUrl: page < lastPage ? pageUrl(page + 1) : null,
    previousPageUrl: page > 1 ? pageUrl(page - 1) : null,
  };
}

/** Rows to skip for a 1-based page. */
export function offsetFor(page: number, perPage: number): number {
  return (page - 1) * perPage;
}
