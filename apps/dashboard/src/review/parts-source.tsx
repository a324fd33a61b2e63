import { useEffect, useState } from 'preact/hooks';
import { readablePath, type ReviewField } from './fields.ts';
import { PageSource } from './page-source.tsx';
import { partLabel } from './place.ts';

/**
 * An email's parts beside the fields: one button per part a value was found in (the message
 * itself, then its attachments), each with how many values it holds, the selected field's part
 * chosen. A part with pages (a PDF attachment) shows its pages with the boxes drawn over the
 * stored previews; the message's text and a text attachment show the quotes found in them.
 */
export function PartsSource(props: {
  extractionId: string;
  fields: ReviewField[];
  partPreviews: Record<string, number[]>;
  selected: string | undefined;
  onSelect: (pointer: string) => void;
}) {
  const found = props.fields.filter((f) => f.citation?.grounded && f.citation.part);
  const parts = [...new Set(found.map((f) => f.citation!.part!))];
  const inPart = (part: string) => found.filter((f) => f.citation!.part === part);
  const selectedPart = found.find((f) => f.pointer === props.selected)?.citation?.part;
  const [part, setPart] = useState<string | undefined>(selectedPart ?? parts[0]);
  useEffect(() => {
    if (selectedPart) setPart(selectedPart);
  }, [props.selected, selectedPart]);

  if (part === undefined || parts.length === 0)
    return <p class="muted">No value was located in the message.</p>;
  const fields = inPart(part);
  const paged = fields.some((f) => f.citation?.page);
  return (
    <div class="parts">
      <div class="pages__tabs" role="group" aria-label="Parts of the message">
        {parts.map((p) => (
          <button
            key={p}
            type="button"
            class="button button--small part-tab"
            aria-pressed={p === part}
            onClick={() => setPart(p)}
          >
            {p === 'body' ? 'Message' : p} ({inPart(p).length})
          </button>
        ))}
      </div>
      {paged ? (
        <PageSource
          extractionId={props.extractionId}
          fields={fields}
          previewPages={props.partPreviews[part] ?? []}
          selected={props.selected}
          part={part}
        />
      ) : (
        <>
          <ul class="part-quotes" aria-label={`Values found in ${partLabel(part)}`}>
            {fields.map((f) => (
              <li key={f.pointer} class={f.pointer === props.selected ? 'is-selected' : undefined}>
                <button
                  type="button"
                  class="link-button mono"
                  onClick={() => props.onSelect(f.pointer)}
                >
                  {readablePath(f.pointer)}
                </button>
                <q>{f.citation!.quote}</q>
              </li>
            ))}
          </ul>
          <p class="muted">
            Quotes from the text the service read of {partLabel(part)}; there are no positions to
            show.
          </p>
        </>
      )}
    </div>
  );
}
