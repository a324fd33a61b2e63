import type { Page } from '../api.ts';

/** Previous / next through a paged list, from the API's own page metadata; nothing when empty. */
export function Pager(props: { meta: Page<unknown>['meta']; onPage: (page: number) => void }) {
  const { currentPage: page, lastPage, total } = props.meta;
  if (total === 0) return null;
  return (
    <nav class="pagination" aria-label="Pages">
      <button
        type="button"
        class="button button--small"
        disabled={page <= 1}
        onClick={() => props.onPage(page - 1)}
      >
        Previous
      </button>
      <span>
        Page {page} of {lastPage} · {total} in all
      </span>
      <button
        type="button"
        class="button button--small"
        disabled={page >= lastPage}
        onClick={() => props.onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
