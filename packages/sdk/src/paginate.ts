import type { ListQuery, Page } from './types.ts';

/**
 * Every record of a list route, page after page, until `meta.nextPageUrl` is null. Records are
 * newest first with stable ties, so a walk sees each once unless records are created meanwhile
 * (they land on page 1, shifting later pages by one).
 */
export async function* paginate<T, Q extends ListQuery>(
  fetchPage: (query: Q) => Promise<Page<T>>,
  query: Q,
): AsyncGenerator<T, void, undefined> {
  for (let page = query.page ?? 1; ; page++) {
    const result = await fetchPage({ ...query, page, limit: query.limit ?? 100 });
    yield* result.data;
    if (result.meta.nextPageUrl === null || result.data.length === 0) return;
  }
}
