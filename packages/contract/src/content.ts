import type { FormatName, SourceType } from './source-kinds.ts';

/**
 * What a prepared source becomes before it reaches the model: an ordered list of parts.
 * Text where the text is faithful, images (as data URLs) where it is not. Every source type
 * (text, pdf, image, webpage) produces this, so the model layer never knows where it came from.
 */
export type ContentPart =
  | {
      kind: 'text';
      text: string;
      /** page or section number, 1-based, for chunking */ unit?: number;
    }
  | {
      kind: 'image';
      /** `data:image/png;base64,...` or `data:image/jpeg;base64,...` */
      dataUrl: string;
      width: number;
      height: number;
      unit?: number;
      /** OpenAI image detail; `high` unless the image is tiny */
      detail?: 'low' | 'high' | 'auto';
    };

export interface PreparedSource {
  parts: ContentPart[];
  /**
   * What a fetched source turned out to be: its format, and for `auto` the kind it was read as
   * (docs/sources.md). Set where preparing learnt it (a URL); an upload's is known at create.
   */
  found?: { type: SourceType; format: FormatName | null };
  /** Optional context lines for the prompt, e.g. page title and final URL of a webpage. */
  meta?: Record<string, string>;
  /** The source as read, for locating values (only prepared when citations are asked for). */
  grounding?: GroundingSource;
  /** Set when pages or characters past a limit were not read: becomes a SOURCE_TRUNCATED warning. */
  truncated?: { message: string };
  /**
   * Set when a document's tracked changes were accepted before it was read (docs/sources.md):
   * becomes a REVISIONS_ACCEPTED warning.
   */
  revisions?: { message: string };
  /**
   * Set when the source was read for a model that takes no images (docs/sources.md#text-only-models):
   * the pages and images sent as their OCR text instead, and the images left out (a webpage's
   * screenshot, a picture beside a page's text). Becomes an IMAGES_READ_AS_TEXT warning.
   */
  imagesAsText?: ImagesAsText;
}

/** What a reading without images did in their place; each count may be 0. */
export interface ImagesAsText {
  pages: number;
  images: number;
  leftOut: number;
}

/** One line of a page as the worker read it: its text and its box (fractions, top-left origin). */
export interface GroundingLine {
  text: string;
  box: [number, number, number, number];
  /**
   * OCR lines: each word as the engine read it, in order, with how sure it was of the reading.
   * Absent for a text layer, whose text is what the page says.
   */
  words?: OcrWord[];
}

/** A word of an OCR line: `text.slice(start, end)` of its line, and the engine's confidence. */
export interface OcrWord {
  start: number;
  end: number;
  /** 0–1: Tesseract's own confidence in the word's reading (its 0–100, divided by 100). */
  confidence: number;
}

/** A page's lines, in reading order; `ocr` when they came from OCR rather than a text layer. */
export interface GroundingPage {
  /** 1-based */
  page: number;
  lines: GroundingLine[];
  ocr?: boolean;
}

/** A non-empty cell of a sheet: its 1-based column and its value as the sheet shows it. */
export interface GroundingCell {
  col: number;
  text: string;
}

/** A sheet row with at least one non-empty cell; `row` is 1-based, as the sheet numbers it. */
export interface GroundingRow {
  row: number;
  cells: GroundingCell[];
  hidden?: boolean;
}

/** A sheet as read: its name and its rows in order (docs/sources.md#spreadsheets). */
export interface GroundingSheet {
  name: string;
  rows: GroundingRow[];
  hidden?: boolean;
  /** 1-based hidden columns, ascending. */
  hiddenColumns: number[];
  /** The rows that head its table, as the model was sent them (docs/sources.md#spreadsheets). */
  headerRows?: number[];
}

/**
 * One part of a message (its body, an attachment) and what was read of it, by the part's own
 * kind. `part` is what citations name: `"body"`, or the attachment's file name.
 */
export interface GroundingPart {
  part: string;
  source: GroundingSource;
}

/**
 * What the worker read of a source, kept beside the parts so that the service can locate each
 * output value in it (docs/citations.md). Never sent to the model as such.
 * - `text`: the submitted text itself (`source.content`), or an uploaded text file's text as
 *   decoded; offsets index into it.
 * - `pages`: PDF pages and images, line by line with boxes (text layer or OCR).
 * - `plain`: a webpage or an uploaded HTML file: the text that was sent to the model; quotes
 *   only, no positions.
 * - `parts`: an email: its body and each attachment read, in order, each with its own source;
 *   a value is cited in the part it was found in, by that part's own layout.
 * - `sheets`: a spreadsheet's sheets, cell by cell as displayed; a value is cited in the cell it
 *   is read in (its sheet and A1 reference), and an array item's values on one sheet row.
 */
export type GroundingSource =
  | { kind: 'text'; content: string }
  | { kind: 'pages'; pages: GroundingPage[] }
  | { kind: 'plain'; text: string }
  | { kind: 'parts'; parts: GroundingPart[] }
  | { kind: 'sheets'; sheets: GroundingSheet[] };
