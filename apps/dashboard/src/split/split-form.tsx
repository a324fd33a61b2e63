import { errorsFor, type FieldError } from '../api.ts';
import { ErrorNotice, Field } from '../components/ui.tsx';
import { schemaChoiceLabel } from '../schema-summary.ts';
import type { Schema, SplitRequest } from '../types.ts';

/** What the first classes' names might be: a mail room's usual mix (docs/split.md). */
const EXAMPLES = ['invoice', 'delivery_note', 'contract'];

/** The API's bound on a split's classes (docs/split.md). */
const MAX_CLASSES = 20;

/** One class as the form holds it: every input a string, empty when not given. */
export interface ClassDraft {
  name: string;
  description: string;
  schemaId: string;
}

export interface SplitDraft {
  classes: ClassDraft[];
  other: boolean;
}

export const EMPTY_CLASS: ClassDraft = { name: '', description: '', schemaId: '' };
export const NEW_SPLIT: SplitDraft = { classes: [EMPTY_CLASS], other: true };

/** What `split` the create request carries: optional parts left out when empty. */
export function splitRequest(draft: SplitDraft): SplitRequest {
  return {
    classes: draft.classes.map((c) => ({
      name: c.name.trim(),
      ...(c.description.trim() ? { description: c.description.trim() } : {}),
      ...(c.schemaId ? { schema_id: c.schemaId } : {}),
    })),
    other: draft.other,
  };
}

/** Whether a field error belongs to the split (shown here, not at the form's foot). */
export const isSplitField = (field: string): boolean =>
  field === 'split' || field.startsWith('split.') || field.startsWith('split[');

/**
 * The run form's classes for splitting a bundle: each with a name, a description the model
 * reads, and the schema its documents are extracted with (none: classified only). The API's
 * errors show beside the class and input they name (`split.classes[2].name`).
 */
export function SplitClassesField(props: {
  draft: SplitDraft;
  onChange: (draft: SplitDraft) => void;
  schemas: Schema[];
  fields: FieldError[];
}) {
  const { draft, onChange, schemas, fields } = props;
  const set = (i: number, change: Partial<ClassDraft>) =>
    onChange({
      ...draft,
      classes: draft.classes.map((c, j) => (j === i ? { ...c, ...change } : c)),
    });
  const named = (i: number, key: string) => errorsFor(fields, `split.classes[${i}].${key}`);
  const shown = new Set(
    draft.classes.flatMap((_, i) =>
      ['name', 'description', 'schema_id'].map((k) => `split.classes[${i}].${k}`),
    ),
  );
  return (
    <fieldset class="fieldset-plain split-form">
      <legend>Document classes</legend>
      <p class="field__hint">
        The model sorts the bundle’s pages into documents of these classes; a class with a schema
        has each of its documents extracted with it.
      </p>
      {draft.classes.map((c, i) => (
        <fieldset class="split-class" key={i}>
          <legend>Class {i + 1}</legend>
          <Field label="Name" errors={named(i, 'name')}>
            {(f) => (
              <input
                id={f.id}
                value={c.name}
                maxLength={64}
                placeholder={EXAMPLES[i]}
                aria-describedby={f.describedBy}
                aria-invalid={f.invalid}
                onInput={(e) => set(i, { name: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field label="Description (optional)" errors={named(i, 'description')}>
            {(f) => (
              <input
                id={f.id}
                value={c.description}
                maxLength={1000}
                placeholder={i === 0 ? 'A bill asking for payment' : undefined}
                aria-describedby={f.describedBy}
                aria-invalid={f.invalid}
                onInput={(e) => set(i, { description: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field label="Schema" errors={named(i, 'schema_id')}>
            {(f) => (
              <select
                id={f.id}
                value={c.schemaId}
                aria-describedby={f.describedBy}
                aria-invalid={f.invalid}
                onChange={(e) => set(i, { schemaId: e.currentTarget.value })}
              >
                <option value="">None: classify only</option>
                {schemas.map((s) => (
                  <option key={s.id} value={s.id}>
                    {schemaChoiceLabel(s, schemas)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {draft.classes.length > 1 && (
            <button
              type="button"
              class="button button--small"
              onClick={() =>
                onChange({ ...draft, classes: draft.classes.filter((_, j) => j !== i) })
              }
            >
              Remove class {i + 1}
            </button>
          )}
        </fieldset>
      ))}
      <div class="form-actions split-form__add">
        <button
          type="button"
          class="button button--small"
          disabled={draft.classes.length >= MAX_CLASSES}
          onClick={() => onChange({ ...draft, classes: [...draft.classes, EMPTY_CLASS] })}
        >
          Add a class
        </button>
      </div>
      <label class="checkbox">
        <input
          type="checkbox"
          checked={draft.other}
          onChange={(e) => onChange({ ...draft, other: e.currentTarget.checked })}
        />
        Pages of no class become documents of class “other”
      </label>
      {fields
        .filter((x) => isSplitField(x.field) && x.field !== 'split' && !shown.has(x.field))
        .map((x) => (
          <ErrorNotice key={x.field} error={`${x.field}: ${x.message}`} />
        ))}
    </fieldset>
  );
}
