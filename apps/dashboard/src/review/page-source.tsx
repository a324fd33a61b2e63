import { useEffect, useRef, useState } from 'preact/hooks';
import { BoxMark } from './box-mark.tsx';
import { readablePath, type ReviewField } from './fields.ts';
import { lineStart, windowStart } from './line-window.ts';
import { PageStrip } from './page-strip.tsx';
import { previewUrl } from './place.ts';

/**
 * How far outside a selected box its ring is drawn, as fractions of the page's width and
 * height: about 6 px either way on a zoomed page.
 */
const RING = { x: 0.006, y: 0.0045 };
/** Room left of the value's line when the zoomed page is scrolled to it, in CSS pixels. */
const MARGIN_PX = 12;

type Bounds = [number, number, number, number];

/**
 * Scrolls a zoomed page's box so the value is in view with its line's start (its label) where
 * that fits, and centred down.
 */
function scrollTo(scroller: HTMLElement, value: Bounds, start: number) {
  const frame = scroller.firstElementChild as HTMLElement | null;
  if (!frame) return;
  const [x0, y0, x1, y1] = value;
  const w = frame.clientWidth;
  const left = windowStart({ x0: x0 * w, x1: x1 * w }, start * w, scroller.clientWidth, MARGIN_PX);
  scroller.scrollLeft = Math.max(0, left);
  scroller.scrollTop = Math.max(
    0,
    ((y0 + y1) / 2) * frame.clientHeight - scroller.clientHeight / 2,
  );
}

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
  /** The email attachment these pages are of, when they are one's. */
  part?: string | undefined;
}) {
  const of = props.part === undefined ? 'the source' : props.part;
  const onPage = (page: number) =>
    props.fields.filter((f) => f.citation?.grounded && f.citation.page === page);
  const pages = [
    ...new Set(props.fields.flatMap((f) => (f.citation?.page ? [f.citation.page] : []))),
  ].sort((a, b) => a - b);
  const selectedPage = props.fields.find((f) => f.pointer === props.selected)?.citation?.page;
  const [page, setPage] = useState<number | undefined>(pages[0]);
  const [failed, setFailed] = useState<Set<number>>(new Set());
  useEffect(() => {
    if (selectedPage) setPage(selectedPage);
  }, [props.selected, selectedPage]);
  // Zoomed to the selected value: the whole page on a phone drew 12 pt text 6 px tall.
  const [whole, setWhole] = useState(false);
  useEffect(() => setWhole(false), [props.selected]);
  const scroller = useRef<HTMLDivElement>(null);
  // Set below, once the value's place is known; hooks go before the early return.
  const scrollToValue = useRef(() => {});
  useEffect(() => scrollToValue.current(), [whole, props.selected, page]);

  if (pages.length === 0 || page === undefined)
    return <p class="muted">No value was located on a page.</p>;
  const preview = props.previewPages.includes(page) && !failed.has(page);
  const src = previewUrl(props.extractionId, page, props.part);
  const selectedField = onPage(page).find((f) => f.pointer === props.selected);
  const boxes = onPage(page).flatMap((f) =>
    (f.citation?.boxes ?? []).map((b, i) => ({ field: f, box: b, key: `${f.pointer}#${i}` })),
  );
  const selectedBoxes = selectedField?.citation?.boxes ?? [];
  const zoomed = !whole && selectedBoxes.length > 0;
  const start = lineStart(
    selectedBoxes,
    boxes.map((b) => b.box),
  );
  const bounds: Bounds | undefined = selectedBoxes.length
    ? [
        Math.min(...selectedBoxes.map((b) => b[0])),
        Math.min(...selectedBoxes.map((b) => b[1])),
        Math.max(...selectedBoxes.map((b) => b[2])),
        Math.max(...selectedBoxes.map((b) => b[3])),
      ]
    : undefined;
  scrollToValue.current = () => {
    if (zoomed && bounds && scroller.current) scrollTo(scroller.current, bounds, start);
  };
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
      {preview && selectedField?.citation?.boxes.length ? (
        // Beside the list only: where the list is above the source, it is under the field.
        <div class="review__pane-strip">
          <PageStrip
            page={page}
            boxes={selectedField.citation.boxes}
            preview={src}
            name={readablePath(selectedField.pointer)}
            lineStart={start}
          />
        </div>
      ) : null}
      {selectedBoxes.length > 0 && (
        <p class="page-preview__zoom">
          <button
            type="button"
            class="button button--small"
            aria-pressed={whole}
            onClick={() => setWhole(!whole)}
          >
            {zoomed ? 'Whole page' : `Zoom to ${readablePath(selectedField!.pointer)}`}
          </button>
        </p>
      )}
      <figure class="page-preview">
        <div
          class={`page-preview__scroll${zoomed ? ' page-preview__scroll--zoomed' : ''}`}
          ref={scroller}
        >
          <div class={`page-preview__frame${zoomed ? ' page-preview__frame--zoomed' : ''}`}>
            {preview ? (
              <img
                src={src}
                alt={`Page ${page} of ${of}`}
                onLoad={() => scrollToValue.current()}
                onError={() => setFailed((s) => new Set(s).add(page))}
              />
            ) : (
              <div
                class="page-preview__blank"
                role="img"
                aria-label={`Page ${page}${props.part === undefined ? '' : ` of ${of}`} (no preview)`}
              />
            )}
            <svg
              class="page-preview__boxes"
              viewBox="0 0 1 1"
              preserveAspectRatio="none"
              aria-hidden="true"
            >
              {boxes.map(({ field, box, key }) => (
                <BoxMark
                  key={key}
                  active={field.pointer === props.selected}
                  pointer={field.pointer}
                  x={box[0]}
                  y={box[1]}
                  width={box[2] - box[0]}
                  height={box[3] - box[1]}
                  pad={RING}
                >
                  <title>{readablePath(field.pointer)}</title>
                </BoxMark>
              ))}
            </svg>
          </div>
        </div>
        <figcaption class="muted">
          Page {page}
          {preview ? (
            <>
              {` · ${boxes.length} box${boxes.length === 1 ? '' : 'es'} · `}
              {/* A picture on its own can be zoomed into on a phone, which this one cannot. */}
              <a href={src} target="_blank" rel="noopener">
                Open full size
              </a>
            </>
          ) : (
            ' · no preview stored; boxes drawn on a blank page'
          )}
        </figcaption>
      </figure>
    </div>
  );
}
