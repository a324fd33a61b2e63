import { useRef } from 'preact/hooks';
import { EvidenceStrip, wholeSourceLabel } from './evidence-strip.tsx';
import type { Place } from './place.ts';

/**
 * The selected field's place in the source, under the field itself, where the source is not
 * beside the list but after all of it (narrow screens; hidden by the stylesheet elsewhere).
 * Once drawn it is brought into view, so a tap shows the evidence where the finger is.
 */
export function FieldEvidence(props: { place: Place; name: string; onShowSource: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  return (
    <div class="field-evidence" ref={box}>
      <EvidenceStrip
        place={props.place}
        name={props.name}
        onDrawn={() => box.current?.scrollIntoView({ block: 'nearest' })}
      />
      <button type="button" class="button button--small" onClick={props.onShowSource}>
        {wholeSourceLabel(props.place)}
      </button>
    </div>
  );
}
