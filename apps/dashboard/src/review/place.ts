import { hasPages, SOURCE_KINDS, typeOfRecord } from '@xt/contract/source-kinds';
import type { GroundingSheet } from '@xt/contract';
import type { Citation, ExtractionRecord } from '../types.ts';
import { textSpan, type ReviewField } from './fields.ts';
import { lineStart } from './line-window.ts';

/** A page: its boxes as fractions of the page, over the stored preview when there is one. */
export interface PagePlace {
  kind: 'page';
  page: number;
  boxes: Citation['boxes'];
  preview: string | undefined;
  /** The email attachment the page belongs to, when it is one. */
  part?: string | undefined;
  /** Where the value's line starts (a fraction of the page's width), so its label is shown. */
  lineStart: number;
}

/**
 * Where in its source a field's value was found, in the terms a close-up of it needs. One
 * variant per way a source is laid out: a new layout adds its variant here, its case in
 * `placeOf`, and its strip in `EvidenceStrip`.
 */
export type Place =
  /** Typed text: the quote's offsets into the text as sent. */
  | { kind: 'text'; content: string; start: number; end: number }
  | PagePlace
  /**
   * A part of an email (its body, an attachment): the quote, and its page inside the part when
   * the part has pages (a PDF attachment).
   */
  | { kind: 'part'; part: string; quote: string; page: PagePlace | undefined }
  /**
   * A spreadsheet's cell: its sheet and A1 reference, the quote (the cell as displayed), and the
   * cells around it the worker stored (undefined when none are, or they were removed).
   */
  | { kind: 'cell'; sheet: string; cell: string; quote: string; cells: GroundingSheet | undefined };

/** How the review shows a source beside the fields. */
export type ReviewLayout = 'pages' | 'text' | 'parts' | 'sheets' | 'quotes';

/**
 * Pages for kinds laid out in pages (the registry's `pages`); the parts of a message for an
 * email; the text for typed text, whose offsets point into what the record holds; otherwise the
 * quotes alone (a webpage or an uploaded file: the record holds a URL or a file name, not the
 * text that was read).
 */
export function reviewLayout(r: ExtractionRecord): ReviewLayout {
  const type = typeOfRecord(r.source.type);
  if (type !== undefined && hasPages(type)) return 'pages';
  if (type !== undefined && SOURCE_KINDS[type].layout === 'parts') return 'parts';
  if (type !== undefined && SOURCE_KINDS[type].layout === 'sheets') return 'sheets';
  if (r.source.type === 'text' && !r.source.file) return 'text';
  return 'quotes';
}

/** The page preview the worker stored, as the dashboard's API serves it. */
export function previewUrl(extractionId: string, page: number, part?: string): string {
  const url = `/dashboard/api/extractions/${extractionId}/pages/${page}`;
  return part === undefined ? url : `${url}?part=${encodeURIComponent(part)}`;
}

/** What a review knows of its source. */
export interface ReviewSource {
  record: ExtractionRecord;
  /** The pages the worker stored a preview of. */
  previewPages: number[];
  /** An email's attachments with pages: the pages of each the worker stored a preview of. */
  partPreviews: Record<string, number[]>;
  /** A spreadsheet's sheets, as far as the worker stored their cells around the cited ones. */
  sheets?: GroundingSheet[] | undefined;
}

/** A cited page, with its stored preview when there is one. */
function pagePlace(source: ReviewSource, c: Citation, part?: string): PagePlace | undefined {
  if (!c.page || c.boxes.length === 0) return undefined;
  const stored = part === undefined ? source.previewPages : (source.partPreviews[part] ?? []);
  const onPage = Object.values(source.record.citations ?? {}).flatMap((o) =>
    o.grounded && o.page === c.page && o.part === part ? o.boxes : [],
  );
  return {
    kind: 'page',
    page: c.page,
    boxes: c.boxes,
    preview: stored.includes(c.page) ? previewUrl(source.record.id, c.page, part) : undefined,
    part,
    lineStart: lineStart(c.boxes, onPage),
  };
}

/** The field's place in the source, when it was found and the source has places to show. */
export function placeOf(source: ReviewSource, field: ReviewField): Place | undefined {
  const c = field.citation;
  if (!c?.grounded) return undefined;
  const r = source.record;
  switch (reviewLayout(r)) {
    case 'pages':
      return pagePlace(source, c);
    case 'parts':
      if (c.part === undefined) return undefined;
      return {
        kind: 'part',
        part: c.part,
        quote: c.quote ?? '',
        page: pagePlace(source, c, c.part),
      };
    case 'sheets':
      if (c.sheet === undefined || c.cell === undefined) return undefined;
      return {
        kind: 'cell',
        sheet: c.sheet,
        cell: c.cell,
        quote: c.quote ?? '',
        cells: source.sheets?.find((s) => s.name === c.sheet),
      };
    case 'text': {
      const span = textSpan(r.source.content, c);
      return span && { kind: 'text', content: r.source.content, ...span };
    }
    case 'quotes':
      return undefined;
  }
}

/** A part of an email as people say it: the message itself, or the attachment by name. */
export function partLabel(part: string): string {
  return part === 'body' ? 'the message' : part;
}
