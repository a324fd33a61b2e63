import { useState } from 'preact/hooks';
import { api, query, type Page } from '../api.ts';
import { Empty, ErrorNotice, PageHeader, Pagination, Spinner } from '../components/ui.tsx';
import { formatDateTime } from '../format.ts';
import { useLoad, useTitle } from '../hooks.ts';
import type { Schema } from '../types.ts';

function fieldCount(structure: unknown): number {
  const s = structure as { properties?: object; items?: { properties?: object } } | null;
  return Object.keys(s?.properties ?? s?.items?.properties ?? {}).length;
}

export function SchemasPage() {
  useTitle('Schemas');
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const list = useLoad(
    () => api.get<Page<Schema>>(`/schemas${query({ search: applied, page, limit: 20 })}`),
    [applied, page],
  );

  return (
    <>
      <PageHeader title="Schemas">
        <a class="button button--primary" href="/dashboard/schemas/new">
          New schema
        </a>
      </PageHeader>
      <p class="lead">A schema describes the JSON you want back from a source.</p>
      <form
        class="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setApplied(search);
        }}
      >
        <div class="field">
          <label for="schema-search">Search by name</label>
          <input
            id="schema-search"
            type="search"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </div>
        <div>
          <button type="submit" class="button">
            Search
          </button>
        </div>
      </form>
      {list.error && <ErrorNotice error={list.error} onRetry={list.reload} />}
      {list.loading && !list.data && <Spinner />}
      {list.data && list.data.data.length === 0 && (
        <Empty title={applied ? `No schema matches “${applied}”` : 'No schemas yet'}>
          {applied ? (
            'Try another search.'
          ) : (
            <a href="/dashboard/schemas/new">Create your first schema</a>
          )}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <div class="table-wrap">
            <table class="table table--cards">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Description</th>
                  <th scope="col">Fields</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((s) => (
                  <tr key={s.id}>
                    <td data-label="Name" class="cell--wrap">
                      <a class="row-link" href={`/dashboard/schemas/${s.id}`}>
                        {s.name}
                      </a>
                    </td>
                    <td data-label="Description" class="cell--wrap">
                      {s.description ?? <span class="muted">—</span>}
                    </td>
                    <td data-label="Fields">{fieldCount(s.structure)}</td>
                    <td data-label="Updated">{formatDateTime(s.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={list.data.meta.currentPage}
            lastPage={list.data.meta.lastPage}
            total={list.data.meta.total}
            onPage={setPage}
          />
        </>
      )}
    </>
  );
}
