import { useRef, useState } from 'preact/hooks';
import { Fragment } from 'preact';
import { api, errorsFor, type Page } from '../api.ts';
import { ErrorNotice, PageHeader, Spinner } from '../components/ui.tsx';
import { useKeys, useLoad, useSubmit, useTitle } from '../hooks.ts';
import { readablePath, reviewFields, type ReviewField } from '../review/fields.ts';
import { ReviewSection } from '../review/review-section.tsx';
import type { ExtractionRecord, ExtractionReview } from '../types.ts';

/** A typed correction back into the field's kind: numbers and booleans stay what they were. */
function parsed(field: ReviewField, text: string): unknown {
  if (typeof field.value === 'number' && text.trim() !== '' && Number.isFinite(Number(text)))
    return Number(text);
  if (typeof field.value === 'boolean' && (text === 'true' || text === 'false'))
    return text === 'true';
  if (field.value === null && text === '') return null;
  return text;
}

const shown = (value: ReviewField['value']) => (value === null ? '' : String(value));

/** Keys that act on the queue; ignored while a correction is being typed. */
const KEYS = 'j next · k previous · c correct · a accept · r reject';

function Current(props: { record: ExtractionRecord; onDone: () => void }) {
  const r = props.record;
  const fields = reviewFields(r.result, r.citations ?? {});
  const [edits, setEdits] = useState<Record<string, string>>({});
  // What was typed, as typed: a decision reads this, not the last render's copy.
  const typed = useRef<Record<string, string>>({});
  const first = useRef<HTMLInputElement>(null);
  const { busy, error, fields: problems, run } = useSubmit();
  const review = useLoad(() => api.get<ExtractionReview>(`/extractions/${r.id}/review`), [r.id]);

  const decide = (decision: 'approve' | 'reject') =>
    run(async () => {
      const corrections: Record<string, unknown> = {};
      if (decision === 'approve')
        for (const f of fields)
          if (typed.current[f.pointer] !== undefined && typed.current[f.pointer] !== shown(f.value))
            corrections[f.pointer] = parsed(f, typed.current[f.pointer]!);
      await api.post(`/extractions/${r.id}/review`, { decision, corrections });
      props.onDone();
    });

  useKeys((e) => {
    if (e.key === 'a') void decide('approve');
    else if (e.key === 'r') void decide('reject');
    else if (e.key === 'c') {
      e.preventDefault();
      first.current?.focus();
    }
  });

  return (
    <section aria-label="Current review" data-testid="current-review">
      <p class="muted">
        <a href={`/dashboard/extractions/${r.id}`} class="mono">
          {r.id}
        </a>{' '}
        · {r.review?.reasons.map((reason) => reason.message).join('; ')}
      </p>
      {error && problems.length === 0 && <ErrorNotice error={error} />}
      <form
        aria-label="Corrections"
        onSubmit={(e) => {
          e.preventDefault();
          void decide('approve');
        }}
      >
        <dl class="details card">
          {fields.map((f, i) => (
            <Fragment key={f.pointer}>
              <dt>
                <label for={`fix-${i}`} class="mono">
                  {readablePath(f.pointer)}
                </label>
              </dt>
              <dd>
                <input
                  id={`fix-${i}`}
                  ref={i === 0 ? first : undefined}
                  class="input"
                  value={edits[f.pointer] ?? shown(f.value)}
                  onInput={(e) => {
                    typed.current = {
                      ...typed.current,
                      [f.pointer]: (e.target as HTMLInputElement).value,
                    };
                    setEdits(typed.current);
                  }}
                  onKeyDown={(e) => e.key === 'Escape' && (e.target as HTMLInputElement).blur()}
                />
                {errorsFor(problems, `corrections[${JSON.stringify(f.pointer)}]`).map((m) => (
                  <span class="field-error" key={m}>
                    {m}
                  </span>
                ))}
              </dd>
            </Fragment>
          ))}
        </dl>
        <div class="actions">
          <button type="submit" class="button button--primary" disabled={busy}>
            Accept (a)
          </button>
          <button
            type="button"
            class="button"
            disabled={busy}
            onClick={() => void decide('reject')}
          >
            Reject (r)
          </button>
        </div>
      </form>
      {r.citations && (
        <ReviewSection
          record={r}
          previewPages={review.data?.previewPages ?? []}
          partPreviews={review.data?.partPreviews ?? {}}
        />
      )}
    </section>
  );
}

/**
 * The review queue (docs/review.md#dashboard): one queued extraction at a time, its fields to
 * correct beside the source's page with each value's evidence, driven from the keyboard.
 */
export function ReviewQueuePage() {
  useTitle('Review');
  const [round, setRound] = useState(0);
  const queue = useLoad(
    () => api.get<Page<ExtractionRecord>>('/reviews?status=needs_review&limit=100'),
    [round],
  );
  const [index, setIndex] = useState(0);
  const items = queue.data?.data ?? [];
  const at = Math.min(index, Math.max(items.length - 1, 0));

  useKeys((e) => {
    if (e.key === 'j') setIndex(Math.min(at + 1, items.length - 1));
    else if (e.key === 'k') setIndex(Math.max(at - 1, 0));
  });

  const current = items[at];
  return (
    <>
      <PageHeader title="Review" />
      <p class="muted" data-testid="review-position">
        {items.length === 0 ? 'Nothing to review.' : `${at + 1} of ${items.length} · ${KEYS}`}
      </p>
      {queue.error && <ErrorNotice error={queue.error} onRetry={queue.reload} />}
      {!queue.data && !queue.error && <Spinner />}
      {current && <Current key={current.id} record={current} onDone={() => setRound(round + 1)} />}
    </>
  );
}
