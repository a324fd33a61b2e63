import { useEffect, useState } from 'preact/hooks';
import { readablePath, type ReviewField } from './fields.ts';
import { PageStrip } from './page-strip.tsx';
import { previewUrl } from './place.ts';

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

  if (pages.length === 0 || page === undefined)
    return <p class="muted">No value was located on a page.</p>;
  const preview = props.previewPages.includes(page) && !failed.has(page);
  const src = previewUrl(props.extractionId, page, props.part);
  const selectedField = onPage(page).find((f) => f.pointer === props.selected);
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
      {preview && selectedField?.citation?.boxes.length ? (
        // Beside the list only: where the list is above the source, it is under the field.
        <div class="review__pane-strip">
          <PageStrip
            page={page}
            boxes={selectedField.citation.boxes}
            preview={src}
            name={readablePath(selectedField.pointer)}
          />
        </div>
      ) : null}
      <figure class="page-preview">
        <div class="page-preview__frame">
          {preview ? (
            <img
              src={src}
              alt={`Page ${page} of ${of}`}
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
