import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, errorsFor, type ApiError } from '../api.ts';
import { StructureOutline } from '../components/structure-outline.tsx';
import { SchemaStarters } from './schema-starters.tsx';
import { ConfirmDialog, ErrorNotice, Field, PageHeader, Spinner } from '../components/ui.tsx';
import { formatDateTime } from '../format.ts';
import { useLoad, useSubmit, useTitle } from '../hooks.ts';
import type { Schema } from '../types.ts';

const STARTER = {
  type: 'object',
  properties: {
    vendor: { type: 'string', describe: 'who issued the invoice', required: true },
    total: { type: 'number', describe: 'grand total including tax' },
    currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
  },
};

function parseJson(text: string): { value?: unknown; problem?: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { problem: `not valid JSON: ${(err as Error).message}` };
  }
}

export function SchemaEditorPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const id = params.id;
  const existing = useLoad(
    () => (id ? api.get<Schema>(`/schemas/${id}`) : Promise.resolve(undefined)),
    [id],
  );
  useTitle(id ? 'Edit schema' : 'New schema');

  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [structureText, setStructureText] = useState(JSON.stringify(STARTER, null, 2));
  const { busy, error, fields, onSubmit } = useSubmit();
  const [saved, setSaved] = useState<string>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<ApiError>();

  useEffect(() => {
    const s = existing.data;
    if (!s) return;
    setName(s.name);
    setDescription(s.description ?? '');
    setStructureText(JSON.stringify(s.structure, null, 2));
  }, [existing.data]);

  const parsed = parseJson(structureText);

  const save = onSubmit(async () => {
    if (parsed.problem) return;
    setSaved(undefined);
    const body = {
      name,
      description: description.trim() ? description : null,
      structure: parsed.value,
    };
    if (id) {
      // A PUT replaces the whole schema: the review settings (not edited here) go back as read.
      await api.put<Schema>(`/schemas/${id}`, { ...body, review: existing.data?.review ?? null });
      setSaved('Schema saved.');
    } else {
      const created = await api.post<Schema>('/schemas', body);
      route(`/dashboard/schemas/${created.id}`);
    }
  });

  const remove = async () => {
    try {
      await api.delete(`/schemas/${id}`);
      route('/dashboard/schemas');
    } catch (err) {
      setDeleteError(err as ApiError);
    }
  };

  if (id && existing.loading && !existing.data) return <Spinner />;
  if (id && existing.error)
    return (
      <>
        <PageHeader title="Schema" />
        <ErrorNotice error={existing.error} onRetry={existing.reload} />
        <a href="/dashboard/schemas">Back to schemas</a>
      </>
    );

  const structureErrors = [
    ...(parsed.problem ? [parsed.problem] : []),
    ...errorsFor(fields, 'structure'),
  ];

  return (
    <>
      <PageHeader title={id ? (existing.data?.name ?? 'Schema') : 'New schema'}>
        {id && (
          <>
            <a class="button" href={`/dashboard/extractions/new?schema_id=${id}`}>
              Run an extraction
            </a>
            <button
              type="button"
              class="button button--danger-quiet"
              onClick={() => setConfirmDelete(true)}
            >
              Delete
            </button>
          </>
        )}
      </PageHeader>
      {existing.data && (
        <p class="lead">
          Created {formatDateTime(existing.data.createdAt)} · updated{' '}
          {formatDateTime(existing.data.updatedAt)} · <code>{existing.data.id}</code>
        </p>
      )}
      <SchemaStarters onStructure={(s) => setStructureText(JSON.stringify(s, null, 2))} />
      <form onSubmit={save} noValidate>
        {saved && (
          <div class="notice notice--ok" role="status">
            {saved}
          </div>
        )}
        {error && <ErrorNotice error={error} />}
        <div class="grid-2">
          <div class="card">
            <Field label="Name" errors={errorsFor(fields, 'name')}>
              {(f) => (
                <input
                  id={f.id}
                  name="name"
                  value={name}
                  aria-describedby={f.describedBy}
                  aria-invalid={f.invalid}
                  onInput={(e) => setName(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field label="Description" errors={errorsFor(fields, 'description')}>
              {(f) => (
                <textarea
                  id={f.id}
                  name="description"
                  rows={2}
                  value={description}
                  aria-describedby={f.describedBy}
                  aria-invalid={f.invalid}
                  onInput={(e) => setDescription(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field
              label="Structure (JSON)"
              errors={structureErrors}
              hint="Field types: string, number, integer, boolean, object, array. Attributes: describe, required, enum, minLength, maxLength."
            >
              {(f) => (
                <textarea
                  id={f.id}
                  name="structure"
                  class="code-input"
                  spellcheck={false}
                  value={structureText}
                  aria-describedby={f.describedBy}
                  aria-invalid={f.invalid}
                  onInput={(e) => setStructureText(e.currentTarget.value)}
                />
              )}
            </Field>
            <div class="form-actions">
              <button
                type="submit"
                class="button button--primary"
                disabled={busy || !!parsed.problem}
              >
                {busy ? 'Saving…' : id ? 'Save changes' : 'Create schema'}
              </button>
              <a class="button" href="/dashboard/schemas">
                Cancel
              </a>
            </div>
          </div>
          <section class="card" aria-labelledby="outline-title">
            <h2 id="outline-title" class="card__title">
              Fields
            </h2>
            {parsed.problem ? (
              <p class="muted">Fix the JSON to see the fields.</p>
            ) : (
              <StructureOutline structure={parsed.value} errors={fields} />
            )}
          </section>
        </div>
      </form>
      <ConfirmDialog
        open={confirmDelete}
        title="Delete this schema?"
        confirmLabel="Delete schema"
        error={deleteError}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>
          Extractions already made with it keep their copy of the structure; new ones cannot use it.
        </p>
      </ConfirmDialog>
    </>
  );
}
