import { useEffect, useState } from 'preact/hooks';
import type { Citation } from '../types.ts';
import { BoxMark } from './box-mark.tsx';
import { windowStart } from './line-window.ts';

interface Size {
  width: number;
  height: number;
}

/** Narrower than this and a close-up shows too little around the value to read it in context. */
const MIN_CLOSEUP_PX = 360;
/**
 * How much wider than the value's lines the window is. More context costs size: a phone's strip
 * is about 330 px wide, and a line of 12 pt text must stay about 14 px there to be read.
 */
const CONTEXT = 1.2;
/**
 * The widest window that still shows a line of 12 pt text about 14 px tall in a phone's strip
 * (previews are 1,000 px wide): a label further left than this from its value is cut.
 */
const MAX_LINE_PX = 480;
/** Room around the value, in preview pixels (a few screen pixels in the strip). */
const PAD_PX = 12;
/** How far outside the value its ring is drawn, in preview pixels. */
const RING_PX = 6;

/** Sizes of the previews already loaded: a strip drawn again needs no second wait. */
const sizes = new Map<string, Size>();

/** The picture's size in pixels once it has loaded; `failed` when it cannot be. */
function useImageSize(src: string | undefined): Size | 'failed' | undefined {
  const [size, setSize] = useState<Size | 'failed' | undefined>(src ? sizes.get(src) : undefined);
  useEffect(() => {
    if (!src) return;
    setSize(sizes.get(src));
    if (sizes.has(src)) return;
    let current = true;
    const img = new Image();
    img.onload = () => {
      const loaded = { width: img.naturalWidth, height: img.naturalHeight };
      sizes.set(src, loaded);
      if (current) setSize(loaded);
    };
    img.onerror = () => current && setSize('failed');
    img.src = src;
    return () => {
      current = false;
    };
  }, [src]);
  return size;
}

/**
 * A value's lines on its page, enlarged: the page preview seen through a window around its
 * boxes (an SVG viewBox, so no inline style is needed), with a margin of context on every side.
 * A whole page is too small to read a line of on a phone; this is what makes the evidence
 * legible. `onDrawn` is called once the picture is there and the strip has its final size.
 */
export function PageStrip(props: {
  page: number;
  boxes: Citation['boxes'];
  preview: string | undefined;
  name: string;
  /** Where the value's line starts (a fraction of the page's width): its label is kept in view. */
  lineStart?: number | undefined;
  onDrawn?: () => void;
}) {
  const size = useImageSize(props.preview);
  const drawn = size !== undefined || !props.preview;
  useEffect(() => {
    if (drawn) props.onDrawn?.();
  }, [drawn, props.preview, props.page]);
  if (!props.preview || size === 'failed')
    return <p class="muted strip__note">On page {props.page}; no preview of it is stored.</p>;
  if (!size) return <div class="strip__loading" aria-hidden="true" />;
  const { width: w, height: h } = size;
  const { boxes } = props;
  const x0 = Math.min(...boxes.map((b) => b[0])) * w;
  const y0 = Math.min(...boxes.map((b) => b[1])) * h;
  const x1 = Math.max(...boxes.map((b) => b[2])) * w;
  const y1 = Math.max(...boxes.map((b) => b[3])) * h;
  const start = props.lineStart === undefined ? x0 : props.lineStart * w;
  const line = x1 - Math.min(x0, start) + 2 * PAD_PX;
  const vw = Math.min(
    w,
    line <= MAX_LINE_PX
      ? Math.max(MIN_CLOSEUP_PX, line)
      : Math.max(MAX_LINE_PX, (x1 - x0) * CONTEXT),
  );
  const vh = Math.min(h, Math.max((y1 - y0) * 3, vw / 4));
  const vx = Math.max(0, Math.min(w - vw, windowStart({ x0, x1 }, start, vw, PAD_PX)));
  const vy = Math.max(0, Math.min(h - vh, (y0 + y1) / 2 - vh / 2));
  return (
    <svg
      class="page-closeup"
      viewBox={`${vx} ${vy} ${vw} ${vh}`}
      role="img"
      aria-label={`Close-up of ${props.name} on page ${props.page}`}
    >
      <image href={props.preview} width={w} height={h} />
      {boxes.map((b, i) => (
        <BoxMark
          key={i}
          active
          x={b[0] * w}
          y={b[1] * h}
          width={(b[2] - b[0]) * w}
          height={(b[3] - b[1]) * h}
          pad={{ x: RING_PX, y: RING_PX }}
        />
      ))}
    </svg>
  );
}
