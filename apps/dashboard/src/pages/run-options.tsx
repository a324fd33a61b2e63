import type { ComponentChildren } from 'preact';
import { errorsFor, type FieldError } from '../api.ts';
import { ErrorNotice } from '../components/ui.tsx';

type Toggle = [boolean, (on: boolean) => void];

/** One yes/no choice: its box and label, what it costs or changes, and its errors. */
function CheckboxField(props: {
  name: string;
  toggle: Toggle;
  label: string;
  fields: FieldError[];
  children: ComponentChildren;
}) {
  const [on, set] = props.toggle;
  const hint = `${props.name}-hint`;
  return (
    <div class="field">
      <label class="checkbox">
        <input
          type="checkbox"
          name={props.name}
          checked={on}
          aria-describedby={hint}
          onChange={(e) => set(e.currentTarget.checked)}
        />
        {props.label}
      </label>
      <p class="field__hint" id={hint}>
        {props.children}
      </p>
      {errorsFor(props.fields, props.name).map((m) => (
        <ErrorNotice key={m} error={m} />
      ))}
    </div>
  );
}

/** The run form's yes/no choices, each with what it costs or changes, and its errors. */
export function RunOptions(props: {
  citations: Toggle;
  reuse: Toggle;
  batch: Toggle;
  fields: FieldError[];
}) {
  const { fields } = props;
  return (
    <>
      <CheckboxField
        name="citations"
        toggle={props.citations}
        label="Cite the source for every value"
        fields={fields}
      >
        Shows where each value was found (quote, page, boxes) and flags values found nowhere.
      </CheckboxField>
      <CheckboxField
        name="cache"
        toggle={props.reuse}
        label="Reuse an earlier answer"
        fields={fields}
      >
        The same source with the same schema and options, done in the last week, completes at once
        without spending tokens. Untick to run the model again.
      </CheckboxField>
      <CheckboxField
        name="priority"
        toggle={props.batch}
        label="Batch: cheaper, not urgent"
        fields={fields}
      >
        The model is called through the provider’s batch interface at its lower price; the result
        may take up to a day.
      </CheckboxField>
    </>
  );
}
