import { useRef, useState } from 'preact/hooks';
import { DataTable, type Column } from '../components/data-table.tsx';
import type { GroundingSheet } from '@xt/contract';
import type { Citation, ExtractionRecord } from '../types.ts';
import { FieldEvidence } from './field-evidence.tsx';
import {
  hasNoValue,
  isUngrounded,
  readablePath,
  reviewFields,
  type ReviewField,
} from './fields.ts';
import { PageSource } from './page-source.tsx';
import { PartsSource } from './parts-source.tsx';
import { SheetSource } from './sheet-source.tsx';
import { placeOf, reviewLayout, type ReviewSource } from './place.ts';
import { TextSource } from './text-source.tsx';

const percent = (c: number | null | undefined) =>
  c === null || c === undefined ? '—' : `${Math.round(c * 100)}%`;

function Found(props: { field: ReviewField }) {
  const c = props.field.citation;
  // The service cites every value that is there: a null or an empty string has nothing to find.
  if (!c) return <span class="muted">{hasNoValue(props.field) ? 'no value' : 'not checked'}</span>;
  return c.grounded ? (
    <>
      <span class="badge badge--grounded">found</span>
      {c.reading === 'uncertain' && (
        <span class="badge badge--pending" title={`OCR: ${percent(c.ocrConfidence)}`}>
          uncertain reading
        </span>
      )}
    </>
  ) : (
    <span class="badge badge--ungrounded">not found</span>
  );
}

/**
 * Which part of an email a quote is from (the message, or an attachment by its file name) and
 * its page there, under the quote: part names are long, and a column of its own would not fit.
 */
function FoundIn(props: { citation: Citation }) {
  const { part, page } = props.citation;
  if (!part) return null;
  const where = part === 'body' ? 'the message' : part;
  return (
    <span class="review__part">
      in {part === 'body' ? where : <span class="mono">{where}</span>}
      {page ? `, page ${page}` : ''}
    </span>
  );
}

function columns(
  select: (pointer: string) => void,
  selected: string | undefined,
  shown: { paged: boolean; parted: boolean; celled: boolean },
): Column<ReviewField>[] {
  const all: (Column<ReviewField> | false)[] = [
    {
      label: 'Field',
      cellClass: 'review__field',
      cell: (f) => (
        <button
          type="button"
          class="link-button mono"
          aria-pressed={f.pointer === selected}
          title={f.pointer}
          onClick={() => select(f.pointer)}
        >
          {readablePath(f.pointer)}
        </button>
      ),
    },
    {
      label: 'Value',
      kind: 'wrap',
      cellClass: 'review__text',
      cell: (f) => <span class="mono">{f.value === null ? 'null' : String(f.value)}</span>,
    },
    { label: 'In source', cellClass: 'review__found', cell: (f) => <Found field={f} /> },
    {
      label: 'Quote',
      kind: 'wrap',
      cellClass: 'review__text',
      cell: (f) =>
        f.citation?.quote ? (
          <>
            <q>{f.citation.quote}</q>
            {shown.parted && <FoundIn citation={f.citation} />}
          </>
        ) : (
          <span class="muted">—</span>
        ),
    },
    // A spreadsheet's values are in cells: the sheet's name, then the cell (`Prices!C5`).
    shown.celled && {
      label: 'Cell',
      // Placed as a page is in a phone's card: beside the confidence.
      cellClass: 'review__figure review__cell',
      cell: (f) =>
        f.citation?.cell ? (
          <span class="mono">
            {f.citation.sheet}!{f.citation.cell}
          </span>
        ) : (
          '—'
        ),
    },
    // Only sources with pages have them; elsewhere the column would be all dashes.
    shown.paged && {
      label: 'Page',
      cellClass: 'review__figure',
      cell: (f) => f.citation?.page ?? '—',
    },
    {
      label: 'Confidence',
      cellClass: 'review__figure',
      cell: (f) => percent(f.citation?.confidence),
    },
  ];
  return all.filter((c) => c !== false);
}

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
    button?.closest('tr')?.scrollIntoView({ block: 'center' });
    button?.focus({ preventScroll: true });
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
        </div>
        <div class="review__source card" ref={pane}>
          {selected !== undefined && (
            <p class="review__back">
              <button type="button" class="link-button" onClick={backToField}>
                <span aria-hidden="true">↑ </span>Back to {readablePath(selected)}
              </button>
            </p>
          )}
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
