import { useState } from 'preact/hooks';
import { api, errorsFor } from '../api.ts';
import { DataTable, type Column } from '../components/data-table.tsx';
import { ErrorNotice, Field } from '../components/ui.tsx';
import { useSubmit } from '../hooks.ts';
import type { SchemaConversion, SchemaSuggestion } from '../types.ts';

/** Sample files a suggestion takes at most, as the API does. */
const MAX_SAMPLES = 5;

const percent = (share: number) => `${Math.round(share * 100)}%`;

type Sample = SchemaSuggestion['samples'][number];

/** Per sample, how much of the draft it carried: a field most samples lack is one to rethink. */
const SAMPLE_COLUMNS: Column<Sample>[] = [
  { label: 'Sample', kind: 'wrap', cell: (s) => s.file.name },
  { label: 'Fields found', cell: (s) => percent(s.fields.share) },
  { label: 'Not in this sample', kind: 'wrap', cell: (s) => s.fields.missing.join(', ') || '—' },
];

/**
 * Two ways to start a structure instead of writing it (docs/api.md#suggest-a-schema): drafted
 * from sample files, or imported from a JSON Schema. Either fills the editor; nothing is saved
 * until the schema is. A field's errors name `files`, `files[i]`, `prompt` or `jsonSchema`.
 */
export function SchemaStarters(props: { onStructure: (structure: unknown) => void }) {
  return (
    <section class="card starters" aria-labelledby="starters-title">
      <h2 id="starters-title" class="card__title">
        Start from documents or a JSON Schema
      </h2>
      <div class="grid-2">
        <SuggestFromFiles onStructure={props.onStructure} />
        <ImportJsonSchema onStructure={props.onStructure} />
      </div>
    </section>
  );
}

function SuggestFromFiles(props: { onStructure: (structure: unknown) => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [prompt, setPrompt] = useState('');
  const [suggestion, setSuggestion] = useState<SchemaSuggestion>();
  const { busy, error, fields, onSubmit } = useSubmit();

  const suggest = onSubmit(async () => {
    setSuggestion(undefined);
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    if (prompt.trim()) form.append('prompt', prompt);
    const answer = await api.post<SchemaSuggestion>('/schemas/suggest', form);
    setSuggestion(answer);
    props.onStructure(answer.structure);
  });
  const fileErrors = fields
    .filter((f) => f.field === 'files' || f.field.startsWith('files['))
    .map((f) => {
      const index = /^files\[(\d+)\]$/.exec(f.field)?.[1];
      const name = index === undefined ? undefined : files[Number(index)]?.name;
      return name ? `${name}: ${f.message}` : f.message;
    });

  return (
    <form onSubmit={suggest} noValidate aria-labelledby="suggest-title">
      <h3 id="suggest-title">Suggest from sample files</h3>
      {error && !error.fields.length && <ErrorNotice error={error} />}
      <Field
        label="Sample files"
        errors={fileErrors}
        hint={`1 to ${MAX_SAMPLES} documents of the kind the schema is for. Charged as two extractions per file.`}
      >
        {(f) => (
          <input
            id={f.id}
            type="file"
            multiple
            aria-describedby={f.describedBy}
            aria-invalid={f.invalid}
            onChange={(e) => setFiles([...(e.currentTarget.files ?? [])])}
          />
        )}
      </Field>
      <Field label="What is the schema for? (optional)" errors={errorsFor(fields, 'prompt')}>
        {(f) => (
          <textarea
            id={f.id}
            rows={2}
            value={prompt}
            aria-describedby={f.describedBy}
            aria-invalid={f.invalid}
            onInput={(e) => setPrompt(e.currentTarget.value)}
          />
        )}
      </Field>
      <button type="submit" class="button" disabled={busy || files.length === 0}>
        {busy ? 'Reading the samples…' : 'Suggest fields'}
      </button>
      {suggestion && (
        <div role="region" aria-label="Fields found per sample">
          <DataTable
            columns={SAMPLE_COLUMNS}
            rows={suggestion.samples}
            rowKey={(s) => s.extractionId}
          />
        </div>
      )}
    </form>
  );
}

function ImportJsonSchema(props: { onStructure: (structure: unknown) => void }) {
  const [text, setText] = useState('');
  const [conversion, setConversion] = useState<SchemaConversion>();
  const [problem, setProblem] = useState<string>();
  const { busy, error, fields, onSubmit } = useSubmit();

  const convert = onSubmit(async () => {
    setConversion(undefined);
    setProblem(undefined);
    let jsonSchema: unknown;
    try {
      jsonSchema = JSON.parse(text);
    } catch (err) {
      setProblem(`not valid JSON: ${(err as Error).message}`);
      return;
    }
    const answer = await api.post<SchemaConversion>('/schemas/convert', { jsonSchema });
    setConversion(answer);
    props.onStructure(answer.structure);
  });
  const schemaErrors = [
    ...(problem ? [problem] : []),
    ...fields
      .filter((f) => f.field === 'jsonSchema' || f.field.startsWith('jsonSchema.'))
      .map((f) => (f.field === 'jsonSchema' ? f.message : `${f.field}: ${f.message}`)),
  ];

  return (
    <form onSubmit={convert} noValidate aria-labelledby="import-title">
      <h3 id="import-title">Import a JSON Schema</h3>
      {error && !error.fields.length && <ErrorNotice error={error} />}
      <Field
        label="JSON Schema"
        errors={schemaErrors}
        hint="Pydantic's model_json_schema(), zod-to-json-schema's output, another service's schema. Free."
      >
        {(f) => (
          <textarea
            id={f.id}
            class="code-input"
            rows={6}
            spellcheck={false}
            value={text}
            aria-describedby={f.describedBy}
            aria-invalid={f.invalid}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        )}
      </Field>
      <button type="submit" class="button" disabled={busy || text.trim() === ''}>
        {busy ? 'Converting…' : 'Convert'}
      </button>
      {conversion &&
        (conversion.dropped.length === 0 ? (
          <p role="status">Everything was kept.</p>
        ) : (
          <div role="status">
            <p>Not kept:</p>
            <ul aria-label="Not kept">
              {conversion.dropped.map((d) => (
                <li key={d.path}>
                  <code>{d.path}</code>: {d.reason}
                </li>
              ))}
            </ul>
          </div>
        ))}
    </form>
  );
}
