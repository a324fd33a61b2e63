import { errorsFor, type FieldError } from '../api.ts';
import { ErrorNotice } from '../components/ui.tsx';

type Toggle = [boolean, (on: boolean) => void];

/** The run form's yes/no choices, each with what it costs or changes, and its errors. */
export function RunOptions(props: {
  citations: Toggle;
  reuse: Toggle;
  batch: Toggle;
  fields: FieldError[];
}) {
  const { fields } = props;
  const [citations, setCitations] = props.citations;
  const [reuse, setReuse] = props.reuse;
  const [batch, setBatch] = props.batch;
  return (
    <>
      <div class="field">
        <label class="checkbox">
          <input
            type="checkbox"
            name="citations"
            checked={citations}
            aria-describedby="citations-hint"
            onChange={(e) => setCitations(e.currentTarget.checked)}
          />
          Cite the source for every value
        </label>
        <p class="field__hint" id="citations-hint">
          Shows where each value was found (quote, page, boxes) and flags values found nowhere.
        </p>
        {errorsFor(fields, 'citations').map((m) => (
          <ErrorNotice key={m} error={m} />
        ))}
      </div>
      <div class="field">
        <label class="checkbox">
          <input
            type="checkbox"
            name="cache"
            checked={reuse}
            aria-describedby="cache-hint"
            onChange={(e) => setReuse(e.currentTarget.checked)}
          />
          Reuse an earlier answer
        </label>
        <p class="field__hint" id="cache-hint">
          The same source with the same schema and options, done in the last week, completes at once
          without spending tokens. Untick to run the model again.
        </p>
        {errorsFor(fields, 'cache').map((m) => (
          <ErrorNotice key={m} error={m} />
        ))}
      </div>
      <div class="field">
        <label class="checkbox">
          <input
            type="checkbox"
            name="priority"
            checked={batch}
            aria-describedby="priority-hint"
            onChange={(e) => setBatch(e.currentTarget.checked)}
          />
          Batch: cheaper, not urgent
        </label>
        <p class="field__hint" id="priority-hint">
          The model is called through the provider’s batch interface at its lower price; the result
          may take up to a day.
        </p>
        {errorsFor(fields, 'priority').map((m) => (
          <ErrorNotice key={m} error={m} />
        ))}
      </div>
    </>
  );
}
