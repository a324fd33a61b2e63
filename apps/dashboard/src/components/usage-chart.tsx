import type { UsageDay } from '../types.ts';
import { formatNumber } from '../format.ts';

const W = 720;
const H = 220;
/**
 * Room for the axis labels in viewBox units, for the largest label size (22 units on a phone,
 * where the SVG is drawn at about half size). The left side grows with the longest number, so
 * "1,000" or "40,000,000" is not cut at the edge.
 */
const PAD = { top: 20, right: 8, bottom: 28 };
const AXIS_CHAR = 13;

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
  const totals = days.map((d) => series.reduce((t, s) => t + d[s.key], 0));
  const max = niceMax(Math.max(0, ...totals));
  const ticks = (max >= 2 ? [0, 0.5, 1] : [0, 1]).map((f) => Math.round(max * f));
  const left = 12 + AXIS_CHAR * Math.max(...ticks.map((t) => formatNumber(t).length));
  const innerW = W - left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, days.length);
  const bar = Math.max(1, step * 0.7);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const labelEvery = Math.ceil(days.length / 8);
  return (
    <figure class="chart">
      <figcaption class="chart__title">{props.title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.title} class="chart__svg">
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
