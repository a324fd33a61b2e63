import { hasPages, typeOfRecord } from '@xt/contract/source-kinds';
import type { Citation, ExtractionRecord } from '../types.ts';
import { textSpan, type ReviewField } from './fields.ts';

/**
 * Where in its source a field's value was found, in the terms a close-up of it needs. One
 * variant per way a source is laid out: a new layout (a sheet's cell, a part of an email) adds
 * its variant here, its case in `placeOf`, and its strip in `EvidenceStrip`.
 */
export type Place =
  /** Typed text: the quote's offsets into the text as sent. */
  | { kind: 'text'; content: string; start: number; end: number }
  /** A page: its boxes as fractions of the page, over the stored preview when there is one. */
  | { kind: 'page'; page: number; boxes: Citation['boxes']; preview: string | undefined };

/** How the review shows a source beside the fields. */
export type ReviewLayout = 'pages' | 'text' | 'quotes';

/**
 * Pages for kinds laid out in pages (the registry's `pages`); the text for typed text, whose
 * offsets point into what the record holds; otherwise the quotes alone (a webpage or an uploaded
 * file: the record holds a URL or a file name, not the text that was read).
 */
export function reviewLayout(r: ExtractionRecord): ReviewLayout {
  const type = typeOfRecord(r.source.type);
  if (type !== undefined && hasPages(type)) return 'pages';
  if (r.source.type === 'text' && !r.source.file) return 'text';
  return 'quotes';
}

/** The page preview the worker stored, as the dashboard's API serves it. */
export function previewUrl(extractionId: string, page: number): string {
  return `/dashboard/api/extractions/${extractionId}/pages/${page}`;
}

/** What a review knows of its source. */
export interface ReviewSource {
  record: ExtractionRecord;
  /** The pages the worker stored a preview of. */
  previewPages: number[];
}

/** The field's place in the source, when it was found and the source has places to show. */
export function placeOf(source: ReviewSource, field: ReviewField): Place | undefined {
  const c = field.citation;
  if (!c?.grounded) return undefined;
  const r = source.record;
  switch (reviewLayout(r)) {
    case 'pages':
      if (!c.page || c.boxes.length === 0) return undefined;
      return {
        kind: 'page',
        page: c.page,
        boxes: c.boxes,
        preview: source.previewPages.includes(c.page) ? previewUrl(r.id, c.page) : undefined,
      };
    case 'text': {
      const span = textSpan(r.source.content, c);
      return span && { kind: 'text', content: r.source.content, ...span };
    }
    case 'quotes':
      return undefined;
  }
}
