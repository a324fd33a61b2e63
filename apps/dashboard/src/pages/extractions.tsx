import { useState } from 'preact/hooks';
import { api, query, type Page } from '../api.ts';
import { DataTable, type Column } from '../components/data-table.tsx';
import { Pager } from '../components/pager.tsx';
import {
  Empty,
  ErrorNotice,
  PageHeader,
  PageProgress,
  Spinner,
  StatusBadge,
} from '../components/ui.tsx';
import { formatDateTime, formatNumber, shortId } from '../format.ts';
import { useLoad, useTitle } from '../hooks.ts';
import { schemaChoiceLabel } from '../schema-summary.ts';
import { STATUSES, type ExtractionListRecord, type Schema } from '../types.ts';

interface Filters {
  status: string;
  schema_id: string;
  startDate: string;
  endDate: string;
}

const NONE: Filters = { status: '', schema_id: '', startDate: '', endDate: '' };

/** The account's schemas for pickers (the 100 newest; the API's largest page). */
export function useSchemaChoices() {
  return useLoad(() => api.get<Page<Schema>>('/schemas?limit=100'), []);
}

function sourceLabel(r: ExtractionListRecord): string {
  return r.input.file ? r.input.file.name : r.input.source;
}

function columns(schemaNames: Map<string, string>): Column<ExtractionListRecord>[] {
  return [
    {
      label: 'Extraction',
      cell: (r) => (
        // Stretched over its whole row (a card on phones): the one link a row has, so the card
        // is a tap target without nesting anything interactive in it.
        <a class="row-link row-link--stretched mono" href={`/dashboard/extractions/${r.id}`}>
          {shortId(r.id)}
        </a>
      ),
    },
    {
      label: 'Status',
      cell: (r) => (
        <>
          <StatusBadge status={r.status} /> <PageProgress progress={r.progress} />
        </>
      ),
    },
    {
      label: 'Schema',
      kind: 'wrap',
      cell: (r) => {
        const id = r.input.schema_id;
        // A split bundle names a schema per class (docs/split.md), none of its own.
        if (id === null) return <span class="muted">split</span>;
        return schemaNames.get(id) ?? <span class="muted">{shortId(id)}</span>;
      },
    },
    {
      label: 'Source',
      kind: 'wrap',
      cell: (r) => (
        <>
          <span class="badge">{r.input.type}</span> {sourceLabel(r)}
        </>
      ),
    },
    { label: 'Tokens', cell: (r) => formatNumber(r.totalTokens) },
    { label: 'Created', cell: (r) => formatDateTime(r.createdAt) },
  ];
}

export function ExtractionsPage() {
  useTitle('Extractions');
  const initial = new URLSearchParams(location.search);
  const [form, setForm] = useState<Filters>({ ...NONE, schema_id: initial.get('schema_id') ?? '' });
  const [applied, setApplied] = useState<Filters>(form);
  const [page, setPage] = useState(1);
  const schemas = useSchemaChoices();
  const list = useLoad(
    () =>
      api.get<Page<ExtractionListRecord>>(`/extractions${query({ ...applied, page, limit: 20 })}`),
    [applied, page],
  );
  const names = new Map((schemas.data?.data ?? []).map((s) => [s.id, s.name]));
  const fieldErrors = list.error?.fields ?? [];
  const set = (k: keyof Filters) => (e: Event) =>
    setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });
  const filtered = Object.values(applied).some(Boolean);

  return (
    <>
      <PageHeader title="Extractions">
        <a class="button button--primary" href="/dashboard/extractions/new">
          Run an extraction
        </a>
      </PageHeader>
      <form
        class="filters"
        aria-label="Filters"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setApplied(form);
        }}
      >
        <div class="field">
          <label for="f-status">Status</label>
          <select id="f-status" value={form.status} onChange={set('status')}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-schema">Schema</label>
          <select id="f-schema" value={form.schema_id} onChange={set('schema_id')}>
            <option value="">Any</option>
            {(schemas.data?.data ?? []).map((s, _, all) => (
              <option key={s.id} value={s.id}>
                {schemaChoiceLabel(s, all)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-from">From</label>
          <input id="f-from" type="date" value={form.startDate} onInput={set('startDate')} />
        </div>
        <div class="field">
          <label for="f-to">To</label>
          <input id="f-to" type="date" value={form.endDate} onInput={set('endDate')} />
        </div>
        <div class="form-actions">
          <button type="submit" class="button">
            Apply
          </button>
          {filtered && (
            <button
              type="button"
              class="button button--small"
              onClick={() => {
                setForm(NONE);
                setApplied(NONE);
                setPage(1);
              }}
            >
              Clear
            </button>
          )}
        </div>
      </form>
      {list.error && (
        <ErrorNotice
          error={
            fieldErrors.length
              ? fieldErrors.map((f) => `${f.field}: ${f.message}`).join('; ')
              : list.error
          }
          onRetry={list.reload}
        />
      )}
      {list.loading && !list.data && <Spinner />}
      {list.data && list.data.data.length === 0 && (
        <Empty title={filtered ? 'No extraction matches these filters' : 'No extractions yet'}>
          {filtered ? (
            'Change or clear the filters.'
          ) : (
            <a href="/dashboard/extractions/new">Run your first one</a>
          )}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <DataTable columns={columns(names)} rows={list.data.data} rowKey={(r) => r.id} />
          <Pager meta={list.data.meta} onPage={setPage} />
        </>
      )}
    </>
  );
}
