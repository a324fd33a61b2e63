import { useEffect, useRef } from 'preact/hooks';
import { textSpan, type ReviewField } from './fields.ts';

interface Segment {
  start: number;
  end: number;
  /** Pointers of the fields whose quote covers this piece. */
  covers: string[];
}

/** The text cut at every quote's start and end, each piece knowing which quotes cover it. */
function segments(content: string, fields: ReviewField[]): Segment[] {
  const spans = fields.flatMap((f) => {
    const span = textSpan(content, f.citation);
    return span ? [{ ...span, pointer: f.pointer }] : [];
  });
  const cuts = [...new Set([0, content.length, ...spans.flatMap((s) => [s.start, s.end])])].sort(
    (a, b) => a - b,
  );
  const out: Segment[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i]!;
    const end = cuts[i + 1]!;
    const covers = spans.filter((s) => s.start <= start && s.end >= end).map((s) => s.pointer);
    out.push({ start, end, covers });
  }
  return out;
}

/**
 * A text source with every grounded quote marked where its offsets say, the selected field's
 * more strongly; clicking a mark selects its field. Text only, never markup.
 */
export function TextSource(props: {
  content: string;
  fields: ReviewField[];
  selected: string | undefined;
  onSelect: (pointer: string) => void;
}) {
  const box = useRef<HTMLPreElement>(null);
  // Scrolls the text box alone: scrollIntoView would scroll the window too, carrying a phone
  // away from the field just tapped to the text far below it.
  useEffect(() => {
    const pre = box.current;
    const active = pre?.querySelector('mark.mark--active');
    if (!pre || !active) return;
    const offset = active.getBoundingClientRect().top - pre.getBoundingClientRect().top;
    if (offset < 0 || offset > pre.clientHeight - active.getBoundingClientRect().height)
      pre.scrollTop += offset - pre.clientHeight / 3;
  }, [props.selected]);
  return (
    <pre class="source-text source-text--review" ref={box} tabIndex={0} aria-label="Source text">
      {segments(props.content, props.fields).map((s) => {
        const text = props.content.slice(s.start, s.end);
        if (s.covers.length === 0) return text;
        const active = props.selected !== undefined && s.covers.includes(props.selected);
        return (
          <mark
            key={s.start}
            class={active ? 'mark--active' : undefined}
            data-pointer={s.covers[0]}
            onClick={() => props.onSelect(s.covers[0]!)}
          >
            {text}
          </mark>
        );
      })}
    </pre>
  );
}
