import { useEffect } from 'preact/hooks';
import { api, errorsFor, type FieldError } from '../api.ts';
import { Field } from '../components/ui.tsx';
import { useLoad } from '../hooks.ts';
import type { Model } from '../types.ts';

/**
 * Below this many tokens a model reads a long document in many windows (docs/models.md): slower
 * and, for facts that only make sense together, weaker. 32k holds most single documents.
 */
const SMALL_CONTEXT_TOKENS = 32_000;

function useModelChoices() {
  return useLoad(() => api.get<Model[]>('/models'), []);
}

/** What a person should know before picking this model, from what its server was found to do. */
function modelNote(model: Model | undefined): string | undefined {
  const c = model?.capabilities;
  if (!c) return undefined;
  const notes: string[] = [];
  if (!c.images)
    notes.push('Reads scans and images as OCR text, so it sees no layout or pictures.');
  if (c.contextTokens !== null && c.contextTokens < SMALL_CONTEXT_TOKENS)
    notes.push(
      `Small context (${c.contextTokens.toLocaleString('en')} tokens): long documents take several calls.`,
    );
  return notes.length ? notes.join(' ') : undefined;
}

/**
 * The models the service serves, as its operator configured them; the default one is chosen
 * until the person picks another, so a create without a choice still names what ran.
 */
export function ModelField(props: {
  value: string;
  onChange: (id: string) => void;
  fields: FieldError[];
}) {
  const models = useModelChoices();
  const list = models.data ?? [];
  const { value, onChange } = props;
  useEffect(() => {
    if (value || !list.length) return;
    onChange((list.find((m) => m.default) ?? list[0]!).id);
  }, [list, value]);
  // Without the list the service's default is used: the form still works.
  if (!list.length) return null;
  return (
    <Field
      label="Model"
      errors={errorsFor(props.fields, 'model')}
      hint={modelNote(list.find((m) => m.id === value))}
    >
      {(f) => (
        <select
          id={f.id}
          name="model"
          value={value}
          aria-describedby={f.describedBy}
          aria-invalid={f.invalid}
          onChange={(e) => onChange(e.currentTarget.value)}
        >
          {list.map((m) => (
            <option key={m.id} value={m.id}>
              {m.default ? `${m.id} (default)` : m.id}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
