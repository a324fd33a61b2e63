import { z } from 'zod';

/*
 * Grounded output (docs/citations.md): what the service itself found in the source for each
 * leaf value of an output, and what it knows it left undone. Shared by the worker (which
 * computes them), the API (which serves them) and the SDK/dashboard (which show them).
 */

/** `[x0, y0, x1, y1]` as fractions of the page's width and height, origin at the top left. */
export const CitationBoxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]).meta({
  id: 'CitationBox',
  description: '[x0, y0, x1, y1] as fractions of the page, origin top left',
});

export type CitationBox = z.output<typeof CitationBoxSchema>;

export const CitationSchema = z
  .object({
    grounded: z.boolean().meta({
      description: 'true only when the service itself found the value’s evidence in the source',
    }),
    quote: z
      .string()
      .max(500)
      .nullable()
      .meta({ description: 'the source’s own text supporting the value; null when not grounded' }),
    page: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: '1-based page (pdf; 1 for image); null otherwise' }),
    boxes: z
      .array(CitationBoxSchema)
      .meta({ description: 'one box per line of the quote; [] where there is no page' }),
    start: z.int().min(0).nullable().meta({
      description:
        'text sources: text.slice(start, end) is the quote, text being source.content as sent, or an uploaded file decoded from UTF-8 without its byte-order mark (JavaScript string indices); null otherwise',
    }),
    end: z.int().min(0).nullable(),
    confidence: z.number().min(0).max(1).nullable().meta({
      description: 'how likely the value is right, 0–1; null where nothing supports a figure',
    }),
    sheet: z.string().optional().meta({
      description: 'spreadsheets: the name of the sheet the cell is on (docs/sources.md)',
    }),
    cell: z
      .string()
      .regex(/^[A-Z]{1,3}[1-9]\d*$/)
      .optional()
      .meta({ description: 'spreadsheets: the cell, as an A1 reference such as "B7"' }),
    ocrConfidence: z.number().min(0).max(1).optional().meta({
      description:
        'grounded on text read by OCR (a scanned page, an image): the lowest confidence the OCR engine gave the words of the quote, 0–1; `confidence` is at most this',
    }),
    reading: z.enum(['uncertain']).optional().meta({
      description:
        '"uncertain" when the value was found only in OCR words read with low confidence (`ocrConfidence` below 0.75): found, but the reading itself may be wrong',
    }),
    part: z.string().optional().meta({
      description:
        'emails: "body", or the attachment’s file name; `page` and `boxes` are within that part',
    }),
  })
  .meta({ id: 'Citation' });

export type Citation = z.output<typeof CitationSchema>;

/** Keyed by JSON Pointer (RFC 6901) into the output: one entry per non-null leaf value. */
export const CitationsSchema = z.record(z.string(), CitationSchema).meta({
  id: 'Citations',
  description: 'keyed by JSON Pointer into the output, e.g. /lines/3/amount',
});

export type Citations = z.output<typeof CitationsSchema>;

export const WARNING_CODES = [
  'OUTPUT_TRUNCATED',
  'SOURCE_TRUNCATED',
  'UNGROUNDED_VALUES',
  'IMAGES_READ_AS_TEXT',
  'REVISIONS_ACCEPTED',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export const ExtractionWarningSchema = z
  .object({
    code: z.enum(WARNING_CODES),
    path: z
      .string()
      .meta({ description: 'JSON Pointer into the output ("" for the whole answer)' }),
    message: z.string(),
  })
  .meta({ id: 'ExtractionWarning' });

export type ExtractionWarning = z.output<typeof ExtractionWarningSchema>;
