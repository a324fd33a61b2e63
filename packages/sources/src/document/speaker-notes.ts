import type { DocumentFormat } from './export-filter.ts';

/** The archive entries that hold a presentation's speaker notes: PPTX's notes slides, ODP's content. */
export const NOTES_ENTRIES = /^(?:ppt\/notesSlides\/notesSlide\d+\.xml|content\.xml)$/;

const hasText = (xml: string) =>
  [...xml.matchAll(/<(?:[\w-]+:)?t(?:\s[^>]*)?>([^<]*)</g)].some((m) => m[1]?.trim());

/** Placeholders a notes slide repeats from its master, which are not notes. */
const NOT_NOTES = /<p:ph\b[^>]*\btype="(?:sldNum|hdr|ftr|dt|sldImg)"/;

/** PPTX: any shape of a notes slide with text (its body, or a text box), but its number, header or date. */
function pptxNotesHaveText(xml: string): boolean {
  for (const shape of xml.split(/<p:sp[\s>]/).slice(1)) {
    const own = shape.split('</p:sp>')[0] ?? '';
    if (!NOT_NOTES.test(own) && hasText(own)) return true;
  }
  return false;
}

/** ODP: any text inside a page's `<presentation:notes>`. */
function odpNotesHaveText(xml: string): boolean {
  for (const m of xml.matchAll(/<presentation:notes\b[^>]*>([\s\S]*?)<\/presentation:notes>/g))
    if (
      (m[1] ?? '')
        .replace(/<[^<>]*>/g, '')
        .replace(/&[#\w]+;/g, 'x')
        .trim()
    )
      return true;
  return false;
}

/**
 * Whether a presentation has speaker notes worth a notes page, from the entries NOTES_ENTRIES
 * kept while its archive was measured. Anything not known to be without notes (PPT, whose
 * binary records are not read; a notes slide or an ODP's content too large to keep) counts as
 * having them, so notes are never lost.
 */
export function hasSpeakerNotes(
  format: DocumentFormat,
  { kept, notKept }: { kept: ReadonlyMap<string, string>; notKept: ReadonlySet<string> },
): boolean {
  if (format === 'pptx')
    return (
      [...notKept].some((name) => name.startsWith('ppt/')) ||
      [...kept].some(([name, xml]) => name.startsWith('ppt/') && pptxNotesHaveText(xml))
    );
  if (format === 'odp') {
    const content = kept.get('content.xml');
    return content === undefined || odpNotesHaveText(content);
  }
  return true;
}
