import { useState } from 'preact/hooks';
import type { ApiError } from '../api.ts';
import { api, errorsFor } from '../api.ts';
import {
  ConfirmDialog,
  Empty,
  ErrorNotice,
  Field,
  PageHeader,
  SecretValue,
  Spinner,
  TextField,
} from '../components/ui.tsx';
import { DataTable, type Column } from '../components/data-table.tsx';
import { formatDateTime } from '../format.ts';
import { useLoad, useSubmit, useTitle } from '../hooks.ts';
import type { ApiKey } from '../types.ts';

type CreatedKey = ApiKey & { key: string };

function CreateKeyForm(props: { onCreated: (key: CreatedKey) => void }) {
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState<'write' | 'read'>('write');
  const { busy, error, fields, onSubmit } = useSubmit();
  const submit = onSubmit(async () => {
    props.onCreated(await api.post<CreatedKey>('/keys', { label, scope }));
    setLabel('');
  });
  return (
    <form class="card form-inline" onSubmit={submit} aria-label="Create a key">
      <h2 class="card__title">Create a key</h2>
      {error && !fields.length && <ErrorNotice error={error} />}
      <div class="form-inline__row">
        <TextField
          label="Label"
          name="label"
          maxLength={100}
          value={label}
          onValue={setLabel}
          errors={errorsFor(fields, 'label')}
          hint="What uses it, e.g. “billing job”"
        />
        <Field label="Scope" errors={errorsFor(fields, 'scope')} hint="Read keys can only GET">
          {(f) => (
            <select
              id={f.id}
              name="scope"
              value={scope}
              aria-describedby={f.describedBy}
              onChange={(e) => setScope(e.currentTarget.value as 'write' | 'read')}
            >
              <option value="write">write (everything)</option>
              <option value="read">read (GET only)</option>
            </select>
          )}
        </Field>
        <div class="form-inline__submit">
          <button type="submit" class="button button--primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </div>
    </form>
  );
}

function NewKey(props: { created: CreatedKey; onDone: () => void }) {
  return (
    <section class="card card--highlight" aria-labelledby="new-key-title">
      <h2 id="new-key-title" class="card__title">
        Your new key{props.created.label ? ` “${props.created.label}”` : ''}
      </h2>
      <p>
        Copy it now: it is shown <strong>only once</strong>. Send it as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      <SecretValue value={props.created.key} label="New API key" testId="new-key" />
      <button type="button" class="button button--small" onClick={props.onDone}>
        I have saved it
      </button>
    </section>
  );
}

function columns(onRevoke: (key: ApiKey) => void): Column<ApiKey>[] {
  return [
    { label: 'Label', cell: (k) => k.label ?? <span class="muted">no label</span> },
    { label: 'Key', cell: (k) => <code>{k.displayPrefix}…</code> },
    { label: 'Scope', cell: (k) => <span class={`badge badge--${k.scope}`}>{k.scope}</span> },
    { label: 'Created', cell: (k) => formatDateTime(k.createdAt) },
    {
      label: 'Last used',
      cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : <span class="muted">never</span>),
    },
    {
      label: 'Actions',
      kind: 'actions',
      cell: (k) =>
        k.revokedAt ? (
          <span class="badge badge--revoked" title={formatDateTime(k.revokedAt)}>
            revoked
          </span>
        ) : (
          <button
            type="button"
            class="button button--small button--danger-quiet"
            aria-label={`Revoke ${k.label ?? k.displayPrefix}`}
            onClick={() => onRevoke(k)}
          >
            Revoke
          </button>
        ),
    },
  ];
}

export function KeysPage() {
  useTitle('API keys');
  const keys = useLoad(() => api.get<ApiKey[]>('/keys'), []);
  const [created, setCreated] = useState<CreatedKey>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [revokeError, setRevokeError] = useState<ApiError>();

  const revoke = async () => {
    if (!revoking) return;
    setRevokeBusy(true);
    setRevokeError(undefined);
    try {
      await api.delete(`/keys/${revoking.id}`);
      setRevoking(undefined);
      keys.reload();
    } catch (err) {
      setRevokeError(err as ApiError);
    } finally {
      setRevokeBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="API keys" />
      <p class="lead">
        Keys let programs call the API for this account. Only a hash is kept, so a key can be shown
        only when it is made.
      </p>
      {created ? (
        <NewKey created={created} onDone={() => setCreated(undefined)} />
      ) : (
        <CreateKeyForm
          onCreated={(k) => {
            setCreated(k);
            keys.reload();
          }}
        />
      )}
      <section aria-labelledby="keys-title">
        <h2 id="keys-title" class="section-title">
          Your keys
        </h2>
        {keys.error && <ErrorNotice error={keys.error} onRetry={keys.reload} />}
        {keys.loading && !keys.data && <Spinner />}
        {keys.data && keys.data.length === 0 && (
          <Empty title="No keys yet">Create one above to start calling the API.</Empty>
        )}
        {keys.data && keys.data.length > 0 && (
          <DataTable
            columns={columns((k) => {
              setRevokeError(undefined);
              setRevoking(k);
            })}
            rows={keys.data}
            rowKey={(k) => k.id}
            rowClass={(k) => (k.revokedAt ? 'row--muted' : undefined)}
          />
        )}
      </section>
      <ConfirmDialog
        open={!!revoking}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        busy={revokeBusy}
        error={revokeError}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(undefined)}
      >
        <p>
          <code>{revoking?.displayPrefix}…</code>
          {revoking?.label ? ` (${revoking.label})` : ''} stops working at once. Programs using it
          will get 401. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
