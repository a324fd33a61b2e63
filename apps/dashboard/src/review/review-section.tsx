import { useRef, useState } from 'preact/hooks';
import { DataTable } from '../components/data-table.tsx';
import type { GroundingSheet } from '@xt/contract';
import type { ExtractionRecord } from '../types.ts';
import { FieldEvidence } from './field-evidence.tsx';
import { isUngrounded, readablePath, reviewFields, type ReviewField } from './fields.ts';
import { columns } from './review-columns.tsx';
import { PageSource } from './page-source.tsx';
import { PartsSource } from './parts-source.tsx';
import { SheetSource } from './sheet-source.tsx';
import { placeOf, reviewLayout, type ReviewSource } from './place.ts';
import { TextSource } from './text-source.tsx';

/**
 * The review view of a completed extraction with citations: every field of the output with its
 * evidence, values found nowhere marked and countable, and the source beside them with the
 * selected value's quote highlighted (text) or its boxes drawn over the page (PDFs, images).
 */
export function ReviewSection(props: {
  record: ExtractionRecord;
  previewPages: number[];
  partPreviews: Record<string, number[]>;
  /** A spreadsheet's stored cells around its cited cells; undefined while loading or without. */
  sheets?: GroundingSheet[] | undefined;
}) {
  const r = props.record;
  const fields = reviewFields(r.result, r.citations ?? {});
  const ungrounded = fields.filter(isUngrounded);
  const [onlyUngrounded, setOnlyUngrounded] = useState(false);
  const [selected, setSelected] = useState<string>();
  const shown = onlyUngrounded ? ungrounded : fields;
  const cited = fields.filter((f) => f.citation).length;
  const source: ReviewSource = {
    record: r,
    previewPages: props.previewPages,
    partPreviews: props.partPreviews,
    sheets: props.sheets,
  };
  const layout = reviewLayout(r);
  const columnsShown = {
    paged: layout === 'pages',
    parted: layout === 'parts',
    celled: layout === 'sheets',
  };
  const list = useRef<HTMLDivElement>(null);
  const pane = useRef<HTMLDivElement>(null);
  // Tapping the selected field again closes what it opened.
  const toggle = (pointer: string) => setSelected((s) => (s === pointer ? undefined : pointer));
  // Where the source comes after the list (narrow screens), these go between the two.
  const showSource = () => {
    pane.current?.scrollIntoView({ block: 'start' });
    pane.current
      ?.querySelector<HTMLElement>('.review__back button')
      ?.focus({ preventScroll: true });
  };
  const backToField = () => {
    const button = list.current?.querySelector<HTMLElement>('button[aria-pressed="true"]');
    if (!button) {
      list.current?.scrollIntoView({ block: 'start' });
      return;
    }
    button.closest('tr')?.scrollIntoView({ block: 'center' });
    button.focus({ preventScroll: true });
  };

  return (
    <section aria-labelledby="review-title" class="review">
      <h2 id="review-title" class="section-title">
        Review
      </h2>
      <div class="review__summary">
        <p data-testid="review-summary">
          {cited} value{cited === 1 ? '' : 's'} checked against the source:{' '}
          <strong class="text-ok">{cited - ungrounded.length} found</strong>
          {', '}
          <strong class={ungrounded.length ? 'text-danger' : undefined}>
            {ungrounded.length} not found
          </strong>
          .
        </p>
        <label class="checkbox">
          <input
            type="checkbox"
            checked={onlyUngrounded}
            disabled={ungrounded.length === 0}
            onChange={(e) => setOnlyUngrounded(e.currentTarget.checked)}
          />
          Only values not found ({ungrounded.length})
        </label>
      </div>
      <div class="review__body">
        <div class="review__fields" ref={list}>
          {shown.length === 0 ? (
            <p class="muted">No values.</p>
          ) : (
            <DataTable
              columns={columns(toggle, selected, columnsShown)}
              rows={shown}
              rowKey={(f) => f.pointer}
              rowClass={(f) =>
                [
                  isUngrounded(f) ? 'row--ungrounded' : undefined,
                  f.pointer === selected ? 'row--selected' : undefined,
                ]
                  .filter(Boolean)
                  .join(' ') || undefined
              }
              detail={(f) => {
                const place = f.pointer === selected ? placeOf(source, f) : undefined;
                return (
                  place && (
                    <FieldEvidence
                      place={place}
                      name={readablePath(f.pointer)}
                      onShowSource={showSource}
                    />
                  )
                );
              }}
            />
          )}
          {/*
           * Where the source comes after the list (narrow screens) it was 4,400 px below a
           * Word invoice's fields: this stays at the bottom of the screen while the list is on
           * it, one tap from any field.
           */}
          <p class="review__jump">
            <button type="button" class="button button--small" onClick={showSource}>
              <span aria-hidden="true">↓ </span>
              {selected === undefined
                ? 'Show the source'
                : `Show ${readablePath(selected)} in the source`}
            </button>
          </p>
        </div>
        <div class="review__source card" ref={pane}>
          <p class="review__back">
            <button type="button" class="link-button" onClick={backToField}>
              <span aria-hidden="true">↑ </span>Back to{' '}
              {selected === undefined ? 'the fields' : readablePath(selected)}
            </button>
          </p>
          <SourcePane source={source} fields={fields} selected={selected} onSelect={setSelected} />
        </div>
      </div>
    </section>
  );
}

function SourcePane(props: {
  source: ReviewSource;
  fields: ReviewField[];
  selected: string | undefined;
  onSelect: (pointer: string) => void;
}) {
  const { source, fields } = props;
  const r = source.record;
  switch (reviewLayout(r)) {
    case 'pages':
      return (
        <PageSource
          extractionId={r.id}
          fields={fields}
          previewPages={source.previewPages}
          selected={props.selected}
        />
      );
    case 'parts':
      return (
        <PartsSource
          extractionId={r.id}
          fields={fields}
          partPreviews={source.partPreviews}
          selected={props.selected}
          onSelect={props.onSelect}
        />
      );
    case 'sheets':
      return (
        <SheetSource
          sheets={source.sheets}
          fields={fields}
          selected={props.selected}
          onSelect={props.onSelect}
        />
      );
    case 'text':
      return (
        <TextSource
          content={r.source.content}
          fields={fields}
          selected={props.selected}
          onSelect={props.onSelect}
        />
      );
    case 'quotes':
      return (
        <p class="muted">
          Quotes are from the text the service read from {r.source.file ? 'the file' : 'the page'};
          there are no positions to show.
        </p>
      );
  }
}
