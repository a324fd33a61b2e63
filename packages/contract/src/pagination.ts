/**
 * Pagination `meta` exactly as the interface names it (docs/api.md#pagination), on every list
 * answer. The SDK declares its own copy for its published types; a compile-time test holds the
 * two equal.
 */
export interface PaginationMeta {
  total: number;
  perPage: number;
  currentPage: number;
  lastPage: number;
  firstPage: number;
  firstPageUrl: string;
  lastPageUrl: string;
  nextPageUrl: string | null;
  previousPageUrl: string | null;
}
