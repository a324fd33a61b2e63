import { useState } from 'preact/hooks';
import { api, query, type Page } from '../api.ts';
import { DataTable, type Column } from '../components/data-table.tsx';
import { Pager } from '../components/pager.tsx';
import { Empty, ErrorNotice, PageHeader, Spinner } from '../components/ui.tsx';
import { formatDateTime } from '../format.ts';
import { useLoad, useTitle } from '../hooks.ts';
import { fieldCountLabel } from '../schema-summary.ts';
import type { Schema } from '../types.ts';

const COLUMNS: Column<Schema>[] = [
  {
    label: 'Name',
    kind: 'wrap',
    cell: (s) => (
      <a class="row-link row-link--stretched" href={`/dashboard/schemas/${s.id}`}>
        {s.name}
      </a>
    ),
  },
  {
    label: 'Description',
    kind: 'wrap',
    // A card has no row to spare for a dash: without a description the line is left out.
    cellClass: (s) => (s.description ? undefined : 'cell--empty'),
    cell: (s) => s.description ?? <span class="muted">—</span>,
  },
  { label: 'Fields', cell: (s) => fieldCountLabel(s.structure) },
  { label: 'Updated', cell: (s) => formatDateTime(s.updatedAt) },
];

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
          <DataTable columns={COLUMNS} rows={list.data.data} rowKey={(s) => s.id} />
          <Pager meta={list.data.meta} onPage={setPage} />
        </>
      )}
    </>
  );
}
