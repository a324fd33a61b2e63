import type { UsageDay } from '../types.ts';
import { formatNumber } from '../format.ts';
import { useWidth } from '../hooks.ts';

/**
 * Drawn in CSS pixels at the width it is given (measured), not scaled from a fixed drawing: a
 * scaled drawing's 11 px labels came out at 7 px on a desktop and, enlarged for phones, ran into
 * each other. Sizes below match `.chart__axis` (12 px text).
 */
const H = 180;
const FALLBACK_WIDTH = 600;
/** Room under the plot for a date label, clear of the "0" centred on the bottom line. */
const PAD = { top: 10, right: 12, bottom: 30 };
/** A digit or comma of the axis font, and the gap between the numbers and the plot. */
const AXIS_CHAR = 8;
const AXIS_GAP = 10;
/** A date label ("11-26") and the space it wants on either side. */
const DATE_LABEL = 48;

function niceMax(v: number): number {
  if (v <= 0) return 1;
  if (v <= 2) return 2;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 4, 10].map((m) => m * p).find((n) => n >= v) ?? v;
}

/**
 * A bar chart drawn as SVG (scales with its box, no chart library): one bar per day, stacked
 * when `stack` names two series. A table with the same numbers sits under it for screen readers.
 */
export function BarChart(props: {
  title: string;
  days: UsageDay[];
  series: { key: keyof Omit<UsageDay, 'date'>; label: string; className: string }[];
}) {
  const { days, series } = props;
  const [figure, measured] = useWidth<HTMLElement>();
  const W = measured || FALLBACK_WIDTH;
  const totals = days.map((d) => series.reduce((t, s) => t + d[s.key], 0));
  const max = niceMax(Math.max(0, ...totals));
  const ticks = (max >= 2 ? [0, 0.5, 1] : [0, 1]).map((f) => Math.round(max * f));
  const left = AXIS_GAP + AXIS_CHAR * Math.max(...ticks.map((t) => formatNumber(t).length));
  const innerW = W - left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, days.length);
  const bar = Math.max(1, step * 0.7);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const labelEvery = Math.max(1, Math.ceil(DATE_LABEL / step));
  return (
    <figure class="chart" ref={figure}>
      <figcaption class="chart__title">{props.title}</figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        aria-label={props.title}
        class="chart__svg"
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={left} x2={W - PAD.right} y1={y(t)} y2={y(t)} class="chart__grid" />
            <text x={left - 6} y={y(t) + 4} class="chart__axis" text-anchor="end">
              {formatNumber(t)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          let base = 0;
          const x = left + i * step + (step - bar) / 2;
          return (
            <g key={d.date}>
              <title>{`${d.date}: ${series.map((s) => `${s.label} ${formatNumber(d[s.key])}`).join(', ')}`}</title>
              {series.map((s) => {
                const v = d[s.key];
                const top = y(base + v);
                const height = y(base) - top;
                base += v;
                return v > 0 ? (
                  <rect key={s.key} x={x} y={top} width={bar} height={height} class={s.className} />
                ) : null;
              })}
              {i % labelEvery === 0 && (
                <text x={x + bar / 2} y={H - 8} class="chart__axis" text-anchor="middle">
                  {d.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <div class="chart__legend">
        {series.map((s) => (
          <span key={s.key}>
            <span class={`chart__swatch ${s.className}`} aria-hidden="true" /> {s.label}
          </span>
        ))}
      </div>
    </figure>
  );
}
