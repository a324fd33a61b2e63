import { partLabel, type Place } from './place.ts';
import { CellStrip } from './cell-strip.tsx';
import { PageStrip } from './page-strip.tsx';
import { PartStrip } from './part-strip.tsx';
import { TextStrip } from './text-strip.tsx';

/**
 * The close-up of a value's place in its source, whatever the source's layout: the one
 * component the review view shows evidence with, beside the field and above the page.
 */
export function EvidenceStrip(props: { place: Place; name: string; onDrawn?: () => void }) {
  const { place, name, onDrawn } = props;
  switch (place.kind) {
    case 'page':
      return (
        <PageStrip
          page={place.page}
          boxes={place.boxes}
          preview={place.preview}
          lineStart={place.lineStart}
          name={name}
          onDrawn={onDrawn}
        />
      );
    case 'part':
      return <PartStrip place={place} name={name} onDrawn={onDrawn} />;
    case 'cell':
      return <CellStrip place={place} name={name} onDrawn={onDrawn} />;
    case 'text':
      return (
        <TextStrip
          content={place.content}
          start={place.start}
          end={place.end}
          name={name}
          onDrawn={onDrawn}
        />
      );
  }
}

/** What "Show …" says for a place: where the whole of its source is shown. */
export function wholeSourceLabel(place: Place): string {
  switch (place.kind) {
    case 'page':
      return 'Show on the page';
    case 'text':
      return 'Show in the text';
    case 'part':
      // The part the value is in: "the message" said of an attachment's value opened the
      // attachment, not the message.
      return `Show in ${partLabel(place.part)}`;
    case 'cell':
      return 'Show in the sheet';
  }
}
