import { useEffect } from 'preact/hooks';

/** Past this many characters on either side of the quote, a long line is cut (with "…"). */
const CONTEXT_CHARS = 80;

/**
 * A quote in a text source, shown on its own line(s) with the quote marked: where the value
 * was found, without the rest of the text around it. `onDrawn` is called once it is laid out.
 */
export function TextStrip(props: {
  content: string;
  start: number;
  end: number;
  name: string;
  onDrawn?: () => void;
}) {
  const { content, start, end } = props;
  useEffect(() => {
    props.onDrawn?.();
  }, [start, end]);
  const lineStart = content.lastIndexOf('\n', start - 1) + 1;
  const newline = content.indexOf('\n', end);
  const lineEnd = newline === -1 ? content.length : newline;
  const from = Math.max(lineStart, start - CONTEXT_CHARS);
  const to = Math.min(lineEnd, end + CONTEXT_CHARS);
  return (
    <figure class="text-strip" aria-label={`Close-up of ${props.name} in the text`}>
      <pre class="text-strip__lines">
        {from > lineStart && '…'}
        {content.slice(from, start)}
        <mark class="mark--active">{content.slice(start, end)}</mark>
        {content.slice(end, to)}
        {to < lineEnd && '…'}
      </pre>
    </figure>
  );
}
