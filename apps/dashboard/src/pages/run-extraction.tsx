import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, errorsFor } from '../api.ts';
import { ErrorNotice, Field, PageHeader, Spinner } from '../components/ui.tsx';
import { useSubmit, useTitle } from '../hooks.ts';
import type { ExtractionRecord } from '../types.ts';
import { schemaChoiceLabel } from '../schema-summary.ts';
import { useSchemaChoices } from './extractions.tsx';
import { ModelField } from './model-field.tsx';
import { RunOptions } from './run-options.tsx';
import {
  NEW_SPLIT,
  SplitClassesField,
  isSplitField,
  splitRequest,
  type SplitDraft,
} from '../split/split-form.tsx';
import { SOURCE_KINDS, typesTaking, type SourceType } from '@xt/contract/source-kinds';

type Mode = 'text' | 'url' | 'file';

/** Which way of giving `source` (the registry's inputs) each mode of the form is. */
const INPUT_OF_MODE = { text: 'inline', url: 'url', file: 'upload' } as const;

/**
 * The types each mode offers, from the service's registry of source kinds (docs/sources.md);
 * the API decides what is valid and says so per field. First the one that fits most: a
 * webpage for a URL, and for a file `auto`, which takes any file the service reads.
 */
const TYPES: Record<Mode, { value: SourceType; label: string }[]> = {
  text: choices('text'),
  url: choices('url', ['webpage', 'auto']),
  file: choices('file', ['auto']),
};

function choices(mode: Mode, first: SourceType[] = []) {
  const rank = (t: SourceType) => (first.includes(t) ? first.indexOf(t) : first.length);
  return typesTaking(INPUT_OF_MODE[mode])
    .sort((a, b) => rank(a) - rank(b))
    .map((value) => ({ value, label: SOURCE_KINDS[value].label }));
}

/** What the file field says it takes: the file kinds' nouns, "a text file, an image, …". */
const FILE_HINT = `${listed(
  TYPES.file.filter((t) => t.value !== 'auto').map((t) => SOURCE_KINDS[t.value].noun),
)}.`;

function listed(items: string[]): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')}, or ${items.at(-1)}`;
}

export function RunExtractionPage() {
  useTitle('Run an extraction');
  const { route } = useLocation();
  const schemas = useSchemaChoices();
  const [schemaId, setSchemaId] = useState(
    new URLSearchParams(location.search).get('schema_id') ?? '',
  );
  const [mode, setMode] = useState<Mode>('text');
  const [type, setType] = useState<string>('text');
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File>();
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  // A dropped file is shown in the file field too, as if it had been chosen there.
  useEffect(() => {
    const input = fileInput.current;
    if (!input || !file || input.files?.[0] === file) return;
    const chosen = new DataTransfer();
    chosen.items.add(file);
    input.files = chosen.files;
  }, [file, mode]);
  const [instruction, setInstruction] = useState('');
  const [citations, setCitations] = useState(false);
  const [reuse, setReuse] = useState(true);
  const [batch, setBatch] = useState(false);
  const [model, setModel] = useState('');
  // A bundle split into documents names a schema per class instead of one (docs/split.md).
  const [splitting, setSplitting] = useState(false);
  const [split, setSplit] = useState<SplitDraft>(NEW_SPLIT);
  const { busy, error, fields, onSubmit } = useSubmit();

  // A file dropped anywhere on the form is the source, read as whatever its content is.
  const dropped = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const first = e.dataTransfer?.files[0];
    if (!first) return;
    setMode('file');
    setType('auto');
    setFile(first);
  };

  const chooseMode = (m: Mode) => {
    setMode(m);
    setType(TYPES[m][0]?.value ?? 'text');
  };

  const submit = onSubmit(async () => {
    const form = new FormData();
    if (splitting) form.append('split', JSON.stringify(splitRequest(split)));
    else form.append('schema_id', schemaId);
    form.append('type', type);
    if (model) form.append('model', model);
    if (mode === 'file') {
      if (file) form.append('source', file, file.name);
    } else form.append('source', mode === 'text' ? text : url);
    if (instruction.trim()) form.append('instruction', instruction);
    if (citations) form.append('citations', 'true');
    if (!reuse) form.append('cache', 'false');
    if (batch) form.append('priority', 'batch');
    // Answer at once (202) and watch it finish on the detail page.
    const created = await api.post<ExtractionRecord>('/extractions', form, {
      prefer: 'respond-async',
    });
    route(`/dashboard/extractions/${created.id}`);
  });

  const choices = schemas.data?.data ?? [];
  return (
    <>
      <PageHeader title="Run an extraction" />
      <p class="lead">Pick a schema, give it a source, and watch the result arrive.</p>
      {schemas.loading && !schemas.data && <Spinner />}
      {schemas.error && <ErrorNotice error={schemas.error} onRetry={schemas.reload} />}
      {schemas.data && choices.length === 0 && (
        <div class="notice">
          <span>
            You need a schema first. <a href="/dashboard/schemas/new">Create one</a>.
          </span>
        </div>
      )}
      <form
        class={dragging ? 'card card--drop' : 'card'}
        onSubmit={submit}
        noValidate
        onDragOver={(e) => {
          if (!e.dataTransfer?.types.includes('Files')) return;
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={(e) => {
          if (e.currentTarget === e.target) setDragging(false);
        }}
        onDrop={dropped}
      >
        {dragging && <p class="drop-hint">Drop the file to extract from it</p>}
        {error && !fields.length && <ErrorNotice error={error} />}
        <div class="field">
          <label class="checkbox">
            <input
              type="checkbox"
              name="split"
              checked={splitting}
              aria-describedby="split-hint"
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setSplitting(on);
                // A bundle is a file or a URL; typed text has no pages to split.
                if (on && mode === 'text') chooseMode('file');
              }}
            />
            Split a bundle into documents
          </label>
          <p class="field__hint" id="split-hint">
            A file or URL holding several documents (a PDF, document or image): each is classified
            and extracted with its class’s schema.
          </p>
          {errorsFor(fields, 'split').map((m) => (
            <ErrorNotice key={m} error={m} />
          ))}
        </div>
        {splitting ? (
          <SplitClassesField draft={split} onChange={setSplit} schemas={choices} fields={fields} />
        ) : (
          <Field label="Schema" errors={errorsFor(fields, 'schema_id')}>
            {(f) => (
              <select
                id={f.id}
                name="schema_id"
                value={schemaId}
                aria-describedby={f.describedBy}
                aria-invalid={f.invalid}
                onChange={(e) => setSchemaId(e.currentTarget.value)}
              >
                <option value="">Choose a schema…</option>
                {choices.map((s) => (
                  <option key={s.id} value={s.id}>
                    {schemaChoiceLabel(s, choices)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <ModelField value={model} onChange={setModel} fields={fields} />
        <fieldset class="fieldset-plain">
          <legend>Source</legend>
          <div class="segmented">
            {(['text', 'url', 'file'] as const).map((m) => (
              <label key={m}>
                <input
                  type="radio"
                  name="mode"
                  value={m}
                  checked={mode === m}
                  onChange={() => chooseMode(m)}
                />
                {m === 'text' ? 'Text' : m === 'url' ? 'URL' : 'File'}
              </label>
            ))}
          </div>
        </fieldset>
        {mode !== 'text' && (
          <Field label="Type" errors={errorsFor(fields, 'type')}>
            {(f) => (
              <select
                id={f.id}
                name="type"
                value={type}
                aria-describedby={f.describedBy}
                onChange={(e) => setType(e.currentTarget.value)}
              >
                {TYPES[mode].map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {mode === 'text' && (
          <Field label="Text" errors={errorsFor(fields, 'source')}>
            {(f) => (
              <textarea
                id={f.id}
                name="source"
                rows={8}
                value={text}
                aria-describedby={f.describedBy}
                aria-invalid={f.invalid}
                onInput={(e) => setText(e.currentTarget.value)}
              />
            )}
          </Field>
        )}
        {mode === 'url' && (
          <Field label="URL" errors={errorsFor(fields, 'source')} hint="A public http(s) address.">
            {(f) => (
              <input
                id={f.id}
                name="source"
                type="url"
                placeholder="https://example.com/invoice.pdf"
                value={url}
                aria-describedby={f.describedBy}
                aria-invalid={f.invalid}
                onInput={(e) => setUrl(e.currentTarget.value)}
              />
            )}
          </Field>
        )}
        {mode === 'file' && (
          <Field
            label="File"
            errors={errorsFor(fields, 'source')}
            hint={`${FILE_HINT.charAt(0).toUpperCase() + FILE_HINT.slice(1)} Or drop a file on the form.`}
          >
            {(f) => (
              <input
                id={f.id}
                ref={fileInput}
                name="source"
                type="file"
                aria-describedby={f.describedBy}
                aria-invalid={f.invalid}
                onChange={(e) => setFile(e.currentTarget.files?.[0])}
              />
            )}
          </Field>
        )}

        <Field label="Instruction (optional)" errors={errorsFor(fields, 'instruction')}>
          {(f) => (
            <input
              id={f.id}
              name="instruction"
              value={instruction}
              aria-describedby={f.describedBy}
              onInput={(e) => setInstruction(e.currentTarget.value)}
            />
          )}
        </Field>
        <RunOptions
          citations={[citations, setCitations]}
          reuse={[reuse, setReuse]}
          batch={[batch, setBatch]}
          fields={fields}
        />
        {fields
          .filter(
            (x) =>
              !isSplitField(x.field) &&
              ![
                'schema_id',
                'model',
                'type',
                'source',
                'instruction',
                'citations',
                'cache',
                'priority',
              ].includes(x.field),
          )
          .map((x) => (
            <ErrorNotice key={x.field} error={`${x.field}: ${x.message}`} />
          ))}
        <button type="submit" class="button button--primary" disabled={busy}>
          {busy ? 'Starting…' : 'Run extraction'}
        </button>
      </form>
    </>
  );
}
