import { useState } from 'preact/hooks';
import { api, errorsFor, query } from '../api.ts';
import { DataTable, type Column } from '../components/data-table.tsx';
import { BarChart } from '../components/usage-chart.tsx';
import { ErrorNotice, Field, PageHeader, Spinner } from '../components/ui.tsx';
import { daysAgo, formatNumber, formatUsd } from '../format.ts';
import { useLoad, useTitle } from '../hooks.ts';
import type { Usage } from '../types.ts';

const SCHEMA_COLUMNS: Column<Usage['schemas'][number]>[] = [
  { label: 'Schema', kind: 'wrap', cell: (s) => s.schemaName },
  { label: 'Extractions', kind: 'number', cell: (s) => formatNumber(s.extractions) },
  { label: 'Tokens', kind: 'number', cell: (s) => formatNumber(s.tokens) },
  { label: 'Cost', kind: 'number', cell: (s) => formatUsd(s.costUsd) },
  { label: 'Saved', kind: 'number', cell: (s) => formatUsd(s.savedUsd) },
];

export function UsagePage() {
  useTitle('Usage');
  const [form, setForm] = useState({ startDate: daysAgo(29), endDate: daysAgo(0) });
  const [range, setRange] = useState(form);
  const usage = useLoad(() => api.get<Usage>(`/usage${query(range)}`), [range]);
  const fields = usage.error?.fields ?? [];
  const u = usage.data;

  return (
    <>
      <PageHeader title="Usage" />
      <p class="lead">
        Extractions, tokens and their estimated cost per day (UTC). Only completed extractions are
        charged; the tokens failed ones used are shown as uncharged. Reused answers cost nothing:
        what their originals cost is shown as saved.
      </p>
      <form
        class="filters"
        aria-label="Date range"
        onSubmit={(e) => {
          e.preventDefault();
          setRange(form);
        }}
      >
        <Field label="From" errors={errorsFor(fields, 'startDate')}>
          {(f) => (
            <input
              id={f.id}
              type="date"
              value={form.startDate}
              aria-describedby={f.describedBy}
              onInput={(e) => setForm({ ...form, startDate: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label="To" errors={errorsFor(fields, 'endDate')}>
          {(f) => (
            <input
              id={f.id}
              type="date"
              value={form.endDate}
              aria-describedby={f.describedBy}
              onInput={(e) => setForm({ ...form, endDate: e.currentTarget.value })}
            />
          )}
        </Field>
        <div class="form-actions">
          <button type="submit" class="button">
            Show
          </button>
          {[7, 30, 90].map((n) => (
            <button
              key={n}
              type="button"
              class="button button--small"
              onClick={() => {
                const r = { startDate: daysAgo(n - 1), endDate: daysAgo(0) };
                setForm(r);
                setRange(r);
              }}
            >
              {n} days
            </button>
          ))}
        </div>
      </form>
      {usage.error && !fields.length && <ErrorNotice error={usage.error} onRetry={usage.reload} />}
      {usage.loading && !u && <Spinner />}
      {u && (
        <>
          <div class="stats">
            <div class="stat">
              <div class="stat__label">Extractions</div>
              <div class="stat__value">{formatNumber(u.totals.extractions)}</div>
            </div>
            <div class="stat">
              <div class="stat__label">Charged</div>
              <div class="stat__value">{formatNumber(u.totals.charged)}</div>
            </div>
            <div class="stat">
              <div class="stat__label">Failed</div>
              <div class="stat__value">{formatNumber(u.totals.failed)}</div>
            </div>
            <div class="stat">
              <div class="stat__label">Tokens</div>
              <div class="stat__value">{formatNumber(u.totals.tokens)}</div>
            </div>
            <div class="stat">
              <div class="stat__label">Uncharged tokens</div>
              <div class="stat__value" data-testid="uncharged-tokens">
                {formatNumber(u.totals.unchargedTokens)}
              </div>
            </div>
            <div class="stat">
              <div class="stat__label">Estimated cost</div>
              <div class="stat__value" data-testid="cost">
                {formatUsd(u.totals.costUsd)}
              </div>
            </div>
            <div class="stat">
              <div class="stat__label">Saved ({formatNumber(u.totals.reused)} reused)</div>
              <div class="stat__value" data-testid="saved">
                {formatUsd(u.totals.savedUsd)}
              </div>
            </div>
          </div>
          <div class="grid-2">
            <div class="card">
              <BarChart
                title="Extractions per day"
                days={u.days}
                series={[
                  { key: 'charged', label: 'Charged', className: 'fill-ok' },
                  { key: 'failed', label: 'Failed', className: 'fill-danger' },
                ]}
              />
            </div>
            <div class="card">
              <BarChart
                title="Tokens per day"
                days={u.days}
                series={[
                  { key: 'chargedTokens', label: 'Charged', className: 'fill-primary' },
                  { key: 'unchargedTokens', label: 'Uncharged', className: 'fill-danger' },
                ]}
              />
            </div>
          </div>
          <section class="card section-gap" aria-labelledby="by-schema">
            <h2 id="by-schema" class="card__title">
              By schema
            </h2>
            {u.schemas.length === 0 ? (
              <p class="muted">No extractions in this range.</p>
            ) : (
              // A card per schema on phones: five columns of a table did not fit 390 px.
              <div data-testid="usage-by-schema">
                <DataTable
                  columns={SCHEMA_COLUMNS}
                  rows={u.schemas}
                  rowKey={(s) => s.schemaId ?? 'split'}
                />
              </div>
            )}
          </section>
          <details class="card section-gap">
            <summary>The numbers, day by day</summary>
            <div class="table-wrap section-gap">
              <table class="table table--compact">
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Extractions</th>
                    <th scope="col">Failed</th>
                    <th scope="col">Tokens</th>
                    <th scope="col">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {u.days.map((d) => (
                    <tr key={d.date}>
                      <td>
                        <time dateTime={d.date}>
                          <span class="day__year">{d.date.slice(0, 5)}</span>
                          {d.date.slice(5)}
                        </time>
                      </td>
                      <td>{formatNumber(d.extractions)}</td>
                      <td>{formatNumber(d.failed)}</td>
                      <td>{formatNumber(d.tokens)}</td>
                      <td>{formatUsd(d.costUsd)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </>
  );
}
