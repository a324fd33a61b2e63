import { useEffect } from 'preact/hooks';
import { PageStrip } from './page-strip.tsx';
import { partLabel, type Place } from './place.ts';

/**
 * Which part of an email a value came from, and the value there: its lines on the attachment's
 * page (a PDF attachment, over the stored preview), or the quote itself where the part has no
 * pages (the message's own text, a text attachment).
 */
export function PartStrip(props: {
  place: Extract<Place, { kind: 'part' }>;
  name: string;
  onDrawn?: () => void;
}) {
  const { place, name, onDrawn } = props;
  useEffect(() => {
    if (!place.page) onDrawn?.();
  }, [place.part, place.quote, place.page]);
  const where = partLabel(place.part);
  return (
    <figure class="part-strip" aria-label={`${name} in ${where}`}>
      <figcaption class="part-strip__part" data-testid="evidence-part">
        {place.part === 'body' ? (
          'In the message'
        ) : (
          <>
            In <span class="part-strip__name">{where}</span>
          </>
        )}
        {place.page && `, page ${place.page.page}`}
      </figcaption>
      {place.page ? (
        <PageStrip
          page={place.page.page}
          boxes={place.page.boxes}
          preview={place.page.preview}
          lineStart={place.page.lineStart}
          name={name}
          onDrawn={onDrawn}
        />
      ) : (
        <p class="text-strip__lines">
          <mark class="mark--active">{place.quote}</mark>
        </p>
      )}
    </figure>
  );
}
