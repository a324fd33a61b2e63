import type { Column } from '../components/data-table.tsx';
import type { Citation } from '../types.ts';
import { hasNoValue, readablePath, type ReviewField } from './fields.ts';

const percent = (c: number | null | undefined) =>
  c === null || c === undefined ? '—' : `${Math.round(c * 100)}%`;

function Found(props: { field: ReviewField }) {
  const c = props.field.citation;
  // The service cites every value that is there: a null or an empty string has nothing to find.
  if (!c) return <span class="muted">{hasNoValue(props.field) ? 'no value' : 'not checked'}</span>;
  return c.grounded ? (
    <span class="badge badge--grounded">found</span>
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

/** The review table's columns; page, part and cell only for sources that have them. */
export function columns(
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
