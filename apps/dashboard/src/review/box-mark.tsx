import type { ComponentChildren } from 'preact';

/**
 * A cited box drawn over a page, in the units of the picture it is over. The selected one is
 * tinted and ringed `pad` outside its edges: a stroke on the box itself ran through the first
 * and last letters of the value it marked, hiding them on a small page.
 */
export function BoxMark(props: {
  x: number;
  y: number;
  width: number;
  height: number;
  active: boolean;
  /** How far outside the box its ring goes, across and down. */
  pad: { x: number; y: number };
  pointer?: string;
  children?: ComponentChildren;
}) {
  const { x, y, width, height, pad } = props;
  return (
    <>
      <rect
        class={props.active ? 'box box--active' : 'box'}
        data-pointer={props.pointer}
        x={x}
        y={y}
        width={Math.max(0, width)}
        height={Math.max(0, height)}
        vector-effect="non-scaling-stroke"
      >
        {props.children}
      </rect>
      {props.active && (
        <rect
          class="box__ring"
          x={x - pad.x}
          y={y - pad.y}
          width={Math.max(0, width) + 2 * pad.x}
          height={Math.max(0, height) + 2 * pad.y}
          vector-effect="non-scaling-stroke"
        />
      )}
    </>
  );
}
