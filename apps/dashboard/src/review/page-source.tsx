import { useEffect, useState } from 'preact/hooks';
import { readablePath, type ReviewField } from './fields.ts';

interface Size {
  width: number;
  height: number;
}

/** Narrower than this and a close-up shows too little around the value to read it in context. */
const MIN_CLOSEUP_PX = 360;

/**
 * The pages of a PDF or image with each grounded value's boxes drawn over the page preview the
 * worker stored. One page at a time, chosen by its tab or by selecting a field on it. Without a
 * preview (none stored, or removed with the upload), the boxes are drawn on a blank page of the
 * usual shape so their places can still be seen.
 */
export function PageSource(props: {
  extractionId: string;
  fields: ReviewField[];
  previewPages: number[];
  selected: string | undefined;
}) {
  const onPage = (page: number) =>
    props.fields.filter((f) => f.citation?.grounded && f.citation.page === page);
  const pages = [
    ...new Set(props.fields.flatMap((f) => (f.citation?.page ? [f.citation.page] : []))),
  ].sort((a, b) => a - b);
  const selectedPage = props.fields.find((f) => f.pointer === props.selected)?.citation?.page;
  const [page, setPage] = useState<number | undefined>(pages[0]);
  const [failed, setFailed] = useState<Set<number>>(new Set());
  const [natural, setNatural] = useState<Record<number, Size>>({});
  useEffect(() => {
    if (selectedPage) setPage(selectedPage);
  }, [props.selected, selectedPage]);

  if (pages.length === 0 || page === undefined)
    return <p class="muted">No value was located on a page.</p>;
  const preview = props.previewPages.includes(page) && !failed.has(page);
  const src = `/dashboard/api/extractions/${props.extractionId}/pages/${page}`;
  const selectedField = onPage(page).find((f) => f.pointer === props.selected);
  const size = natural[page];
  const boxes = onPage(page).flatMap((f) =>
    (f.citation?.boxes ?? []).map((b, i) => ({ field: f, box: b, key: `${f.pointer}#${i}` })),
  );
  return (
    <div class="pages">
      {pages.length > 1 && (
        <div class="pages__tabs" role="group" aria-label="Pages">
          {pages.map((p) => (
            <button
              key={p}
              type="button"
              class="button button--small"
              aria-pressed={p === page}
              onClick={() => setPage(p)}
            >
              Page {p}
            </button>
          ))}
        </div>
      )}
      {preview && size && selectedField && (
        <CloseUp src={src} size={size} page={page} field={selectedField} />
      )}
      <figure class="page-preview">
        <div class="page-preview__frame">
          {preview ? (
            <img
              src={src}
              alt={`Page ${page} of the source`}
              onLoad={(e) => {
                const img = e.currentTarget;
                setNatural((n) => ({
                  ...n,
                  [page]: { width: img.naturalWidth, height: img.naturalHeight },
                }));
              }}
              onError={() => setFailed((s) => new Set(s).add(page))}
            />
          ) : (
            <div class="page-preview__blank" role="img" aria-label={`Page ${page} (no preview)`} />
          )}
          <svg
            class="page-preview__boxes"
            viewBox="0 0 1 1"
            preserveAspectRatio="none"
            aria-hidden="true"
          >
            {boxes.map(({ field, box, key }) => (
              <rect
                key={key}
                class={field.pointer === props.selected ? 'box box--active' : 'box'}
                data-pointer={field.pointer}
                x={box[0]}
                y={box[1]}
                width={Math.max(0, box[2] - box[0])}
                height={Math.max(0, box[3] - box[1])}
                vector-effect="non-scaling-stroke"
              >
                <title>{readablePath(field.pointer)}</title>
              </rect>
            ))}
          </svg>
        </div>
        <figcaption class="muted">
          Page {page}
          {preview
            ? ` · ${boxes.length} box${boxes.length === 1 ? '' : 'es'}`
            : ' · no preview stored; boxes drawn on a blank page'}
        </figcaption>
      </figure>
    </div>
  );
}

/**
 * The selected value's lines enlarged: the page preview seen through a window around its boxes
 * (an SVG viewBox, so no inline style is needed), with a margin of context on every side. On a
 * phone a whole page is too small to read a line of; this is what makes the evidence legible.
 */
function CloseUp(props: { src: string; size: Size; page: number; field: ReviewField }) {
  const { width: w, height: h } = props.size;
  const boxes = props.field.citation?.boxes ?? [];
  if (boxes.length === 0) return null;
  const x0 = Math.min(...boxes.map((b) => b[0])) * w;
  const y0 = Math.min(...boxes.map((b) => b[1])) * h;
  const x1 = Math.max(...boxes.map((b) => b[2])) * w;
  const y1 = Math.max(...boxes.map((b) => b[3])) * h;
  const vw = Math.min(w, Math.max(MIN_CLOSEUP_PX, (x1 - x0) * 1.6));
  const vh = Math.min(h, Math.max((y1 - y0) * 3, vw / 4));
  const vx = Math.max(0, Math.min(w - vw, (x0 + x1) / 2 - vw / 2));
  const vy = Math.max(0, Math.min(h - vh, (y0 + y1) / 2 - vh / 2));
  return (
    <svg
      class="page-closeup"
      viewBox={`${vx} ${vy} ${vw} ${vh}`}
      role="img"
      aria-label={`Close-up of ${readablePath(props.field.pointer)} on page ${props.page}`}
    >
      <image href={props.src} width={w} height={h} />
      {boxes.map((b, i) => (
        <rect
          key={i}
          class="box box--active"
          x={b[0] * w}
          y={b[1] * h}
          width={Math.max(0, (b[2] - b[0]) * w)}
          height={Math.max(0, (b[3] - b[1]) * h)}
          vector-effect="non-scaling-stroke"
        />
      ))}
    </svg>
  );
}
