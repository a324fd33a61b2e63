import { useState } from 'preact/hooks';
import { api, errorsFor, type ApiError, type Page } from '../api.ts';
import {
  ConfirmDialog,
  Empty,
  ErrorNotice,
  PageHeader,
  SecretValue,
  Spinner,
  StatusBadge,
  TextField,
} from '../components/ui.tsx';
import { DataTable, type Column } from '../components/data-table.tsx';
import { Pager } from '../components/pager.tsx';
import { formatDateTime } from '../format.ts';
import { useLoad, useSubmit, useTitle } from '../hooks.ts';
import {
  DEFAULT_WEBHOOK_EVENTS,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../types.ts';

function CreateEndpointForm(props: { onCreated: (e: WebhookEndpoint) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([...DEFAULT_WEBHOOK_EVENTS]);
  const { busy, error, fields, onSubmit } = useSubmit();
  const eventErrors = fields.filter((f) => f.field.startsWith('events')).map((f) => f.message);

  const submit = onSubmit(async () => {
    const body = { url, events, ...(description.trim() ? { description } : {}) };
    props.onCreated(await api.post<WebhookEndpoint>('/webhooks', body));
    setUrl('');
    setDescription('');
  });
  return (
    <form class="card" onSubmit={submit} noValidate aria-label="Add an endpoint">
      <h2 class="card__title">Add an endpoint</h2>
      {error && !fields.length && <ErrorNotice error={error} />}
      <div class="grid-2">
        <TextField
          label="URL"
          name="url"
          type="url"
          value={url}
          onValue={setUrl}
          placeholder="https://example.com/hooks/extractions"
          errors={errorsFor(fields, 'url')}
          hint="Where events are POSTed (https recommended)."
        />
        <TextField
          label="Description (optional)"
          name="description"
          value={description}
          onValue={setDescription}
          errors={errorsFor(fields, 'description')}
        />
      </div>
      <fieldset class="fieldset-plain">
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((ev) => (
          <label key={ev} class="checkbox">
            <input
              type="checkbox"
              checked={events.includes(ev)}
              onChange={(e) =>
                setEvents(
                  e.currentTarget.checked ? [...events, ev] : events.filter((x) => x !== ev),
                )
              }
            />{' '}
            <code>{ev}</code>
          </label>
        ))}
        {eventErrors.length > 0 && (
          <ul class="field__errors">
            {eventErrors.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
      </fieldset>
      <button type="submit" class="button button--primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  );
}

const DELIVERY_COLUMNS: Column<WebhookDelivery>[] = [
  { label: 'Event', cell: (d) => <code>{d.type}</code> },
  { label: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
  { label: 'Attempt', cell: (d) => d.attempt },
  {
    label: 'Response',
    kind: 'wrap',
    cell: (d) => `${d.responseStatus ?? ''} ${d.error ?? ''}`,
  },
  { label: 'When', cell: (d) => formatDateTime(d.createdAt) },
];

function Deliveries(props: { endpoint: WebhookEndpoint }) {
  const [page, setPage] = useState(1);
  const list = useLoad(
    () =>
      api.get<Page<WebhookDelivery>>(
        `/webhooks/${props.endpoint.id}/deliveries?page=${page}&limit=10`,
      ),
    [props.endpoint.id, page],
  );
  return (
    <section class="section-gap" aria-label={`Deliveries to ${props.endpoint.url}`}>
      {list.error && <ErrorNotice error={list.error} onRetry={list.reload} />}
      {list.loading && !list.data && <Spinner />}
      {list.data && list.data.data.length === 0 && <Empty title="No deliveries yet" />}
      {list.data && list.data.data.length > 0 && (
        <>
          <DataTable columns={DELIVERY_COLUMNS} rows={list.data.data} rowKey={(d) => d.id} />
          <Pager meta={list.data.meta} onPage={setPage} />
        </>
      )}
    </section>
  );
}

export function WebhooksPage() {
  useTitle('Webhooks');
  const [page, setPage] = useState(1);
  const list = useLoad(
    () => api.get<Page<WebhookEndpoint>>(`/webhooks?page=${page}&limit=20`),
    [page],
  );
  const [secret, setSecret] = useState<{ url: string; secret: string }>();
  const [open, setOpen] = useState<string>();
  const [deleting, setDeleting] = useState<WebhookEndpoint>();
  const [actionError, setActionError] = useState<ApiError>();

  const act = async (fn: () => Promise<unknown>) => {
    setActionError(undefined);
    try {
      await fn();
      list.reload();
    } catch (err) {
      setActionError(err as ApiError);
    }
  };

  return (
    <>
      <PageHeader title="Webhooks" />
      <p class="lead">
        We POST an event to each endpoint when an extraction completes or fails, signed with the
        endpoint's secret (Standard Webhooks).
      </p>
      {secret ? (
        <section class="card card--highlight" aria-labelledby="secret-title">
          <h2 id="secret-title" class="card__title">
            Signing secret for {secret.url}
          </h2>
          <p>
            Copy it now: it is shown <strong>only once</strong>. Use it to check the
            <code> webhook-signature</code> header.
          </p>
          <SecretValue value={secret.secret} label="Signing secret" testId="new-secret" />
          <button type="button" class="button button--small" onClick={() => setSecret(undefined)}>
            I have saved it
          </button>
        </section>
      ) : (
        <CreateEndpointForm
          onCreated={(e) => {
            if (e.secret) setSecret({ url: e.url, secret: e.secret });
            list.reload();
          }}
        />
      )}
      <h2 class="section-title">Endpoints</h2>
      {actionError && <ErrorNotice error={actionError} />}
      {list.error && <ErrorNotice error={list.error} onRetry={list.reload} />}
      {list.loading && !list.data && <Spinner />}
      {list.data && list.data.data.length === 0 && (
        <Empty title="No endpoints yet">Add one above to be told when extractions finish.</Empty>
      )}
      {list.data?.data.map((ep) => (
        <article key={ep.id} class="card endpoint">
          <div class="endpoint__head">
            <div class="endpoint__what">
              <code class="endpoint__url">{ep.url}</code>
              {ep.description && <div class="muted">{ep.description}</div>}
              <div class="endpoint__events">
                {ep.events.map((e) => (
                  <span key={e} class="badge">
                    {e}
                  </span>
                ))}
                <span class={`badge ${ep.enabled ? 'badge--enabled' : ''}`}>
                  {ep.enabled ? 'enabled' : 'disabled'}
                </span>
              </div>
            </div>
            <div class="form-actions">
              <button
                type="button"
                class="button button--small"
                aria-expanded={open === ep.id}
                onClick={() => setOpen(open === ep.id ? undefined : ep.id)}
              >
                Deliveries
              </button>
              <button
                type="button"
                class="button button--small"
                onClick={() =>
                  void act(() => api.patch(`/webhooks/${ep.id}`, { enabled: !ep.enabled }))
                }
              >
                {ep.enabled ? 'Disable' : 'Enable'}
              </button>
              <button
                type="button"
                class="button button--small"
                onClick={() =>
                  void act(async () => {
                    const r = await api.post<WebhookEndpoint>(`/webhooks/${ep.id}/rotate-secret`);
                    if (r.secret) setSecret({ url: ep.url, secret: r.secret });
                  })
                }
              >
                Rotate secret
              </button>
              <button
                type="button"
                class="button button--small button--danger-quiet"
                onClick={() => setDeleting(ep)}
              >
                Delete
              </button>
            </div>
          </div>
          <div class="muted endpoint__meta">Added {formatDateTime(ep.createdAt)}</div>
          {open === ep.id && <Deliveries endpoint={ep} />}
        </article>
      ))}
      {list.data && <Pager meta={list.data.meta} onPage={setPage} />}
      <ConfirmDialog
        open={!!deleting}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        onConfirm={() =>
          void act(() => api.delete(`/webhooks/${deleting?.id}`)).then(() => setDeleting(undefined))
        }
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          <code>{deleting?.url}</code> gets no more events.
        </p>
      </ConfirmDialog>
    </>
  );
}
