/*
 * The one registry of source kinds (docs/sources.md): what a client may send as `type`, how each
 * kind is handed over, which file formats it reads and how its content is laid out. The API's
 * validation, the database's check, the OpenAPI enums and the dashboard's run form are built
 * from it; the SDK (and through it the MCP server) and the Python client carry copies written
 * from it by `npm run kinds:copies` (scripts/kinds/copies.ts), which a test fails on when stale.
 *
 * Pure data and small functions, no zod: the dashboard bundles this file.
 */

/**
 * How a kind's content is laid out, which decides where a citation points:
 * - `flow`: one running text; citations by offsets (typed and uploaded text) or by quote alone
 *   (webpages, uploaded HTML);
 * - `pages`: pages, with a page number and boxes on it (PDFs, images, converted documents);
 * - `sheets`: named tables of cells; citations name the sheet and the cell;
 * - `parts`: a message and its attachments, each read by its own kind; citations name the part;
 * - `detected`: `auto`, whose kind is decided by the content; records show the kind found.
 */
export type SourceLayout = 'flow' | 'pages' | 'sheets' | 'parts' | 'detected';

/** How a client may hand a kind's source over in `source`. */
export interface SourceInputs {
  /** The content itself, as the field's text. */
  inline: boolean;
  /** An absolute http(s) URL the worker fetches. */
  url: boolean;
  /** A file part in multipart bodies. */
  upload: boolean;
  /** A base64 `data:` URL in any body. */
  dataUrl: boolean;
}

export interface SourceKind {
  /** What forms call it. */
  label: string;
  /** What messages call one of it: "a PDF", "an image". */
  noun: string;
  inputs: SourceInputs;
  layout: SourceLayout;
  /** `source.type` in the single record (the interface names webpages `url` there). */
  recordType: string;
  /**
   * The file formats (keys of FORMATS) this kind reads, detected by content. Empty for a kind
   * that is never a file (a webpage is rendered from its URL, whatever it serves).
   */
  formats: readonly FormatName[];
  /**
   * Reads formats other kinds read more closely (text reads CSV, Markdown, HTML): `auto` and an
   * email's attachments choose it only when no other kind reads the format.
   */
  fallback?: true;
  /*
   * Traits the worker's steps read instead of naming kinds: a trait a kind lacks is off.
   */
  /**
   * Laid out as a PDF (by LibreOffice) before it is read: that PDF, converted once per job, is
   * what is read, cut into page windows or a bundle's documents, and drawn for previews.
   */
  convertedToPdf?: true;
  /** What its page previews are drawn from: a PDF (its own, or the one it was converted to) or the image. */
  drawnAs?: 'pdf' | 'image';
  /** A long one is worked as page windows (docs/scaling.md#one-large-document). */
  pageWindows?: true;
  /**
   * The worker setting that caps its download (docs/api.md#limits); inside a message, its
   * attachment's cap. `auto` takes the largest of them.
   */
  downloadCap?: DownloadCapSetting;
  /** Read again rather than stored as a preparation: reading it costs less than the look-up. */
  readAgainNotStored?: true;
}

/** The worker settings that cap a file's download, by kind (SourceKind.downloadCap). */
export type DownloadCapSetting =
  | 'MAX_PDF_BYTES'
  | 'MAX_IMAGE_BYTES'
  | 'MAX_HTML_BYTES'
  | 'MAX_EMAIL_BYTES'
  | 'MAX_SPREADSHEET_BYTES'
  | 'MAX_DOCUMENT_BYTES';

/**
 * How a format is recognised from its bytes, never from its name or a declared type:
 * - `magic`: a signature at a fixed place (a PDF's `%PDF-`, a PNG's eight bytes, RTF's `{\rtf`);
 * - `zip`: a ZIP archive told apart by its own manifest (OOXML's `[Content_Types].xml` and
 *   part names, OpenDocument's `mimetype` entry);
 * - `cfb`: an OLE compound file told apart by its streams (`WordDocument`, `Workbook`,
 *   `PowerPoint Document`, Outlook's `__substg1.0_` properties; `EncryptedPackage` for a
 *   password-protected Office file);
 * - `text`: valid UTF-8 without NUL bytes, told apart by its shape: HTML by its opening tags,
 *   a message by its header block, CSV and TSV by a delimiter every line has alike.
 */
export type Detection = 'magic' | 'zip' | 'cfb' | 'text';

export interface FileFormat {
  /** The content type records show for it. */
  mime: string;
  /** Names it usually has; used by clients to guess a type for a file, never by the service. */
  extensions: readonly string[];
  detectedBy: Detection;
}

/** Every file format the service reads. The name is what records show as `format`. */
export const FORMATS = {
  pdf: { mime: 'application/pdf', extensions: ['.pdf'], detectedBy: 'magic' },
  png: { mime: 'image/png', extensions: ['.png'], detectedBy: 'magic' },
  jpeg: { mime: 'image/jpeg', extensions: ['.jpg', '.jpeg'], detectedBy: 'magic' },
  gif: { mime: 'image/gif', extensions: ['.gif'], detectedBy: 'magic' },
  webp: { mime: 'image/webp', extensions: ['.webp'], detectedBy: 'magic' },
  tiff: { mime: 'image/tiff', extensions: ['.tif', '.tiff'], detectedBy: 'magic' },
  bmp: { mime: 'image/bmp', extensions: ['.bmp'], detectedBy: 'magic' },
  avif: { mime: 'image/avif', extensions: ['.avif'], detectedBy: 'magic' },
  heic: { mime: 'image/heic', extensions: ['.heic', '.heif'], detectedBy: 'magic' },
  txt: { mime: 'text/plain', extensions: ['.txt'], detectedBy: 'text' },
  md: { mime: 'text/markdown', extensions: ['.md', '.markdown'], detectedBy: 'text' },
  csv: { mime: 'text/csv', extensions: ['.csv'], detectedBy: 'text' },
  tsv: { mime: 'text/tab-separated-values', extensions: ['.tsv', '.tab'], detectedBy: 'text' },
  json: { mime: 'application/json', extensions: ['.json'], detectedBy: 'text' },
  html: { mime: 'text/html', extensions: ['.html', '.htm'], detectedBy: 'text' },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['.docx', '.docm', '.dotx'],
    detectedBy: 'zip',
  },
  doc: { mime: 'application/msword', extensions: ['.doc', '.dot'], detectedBy: 'cfb' },
  odt: { mime: 'application/vnd.oasis.opendocument.text', extensions: ['.odt'], detectedBy: 'zip' },
  rtf: { mime: 'application/rtf', extensions: ['.rtf'], detectedBy: 'magic' },
  pptx: {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    extensions: ['.pptx', '.pptm', '.ppsx'],
    detectedBy: 'zip',
  },
  ppt: { mime: 'application/vnd.ms-powerpoint', extensions: ['.ppt', '.pps'], detectedBy: 'cfb' },
  odp: {
    mime: 'application/vnd.oasis.opendocument.presentation',
    extensions: ['.odp'],
    detectedBy: 'zip',
  },
  xlsx: {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extensions: ['.xlsx', '.xlsm'],
    detectedBy: 'zip',
  },
  xls: { mime: 'application/vnd.ms-excel', extensions: ['.xls'], detectedBy: 'cfb' },
  ods: {
    mime: 'application/vnd.oasis.opendocument.spreadsheet',
    extensions: ['.ods'],
    detectedBy: 'zip',
  },
  eml: { mime: 'message/rfc822', extensions: ['.eml'], detectedBy: 'text' },
  msg: { mime: 'application/vnd.ms-outlook', extensions: ['.msg'], detectedBy: 'cfb' },
  /**
   * A password-protected Word, Excel or PowerPoint file: Office wraps the encrypted package in
   * an OLE compound file, so which of the three it is cannot be seen. Accepted where a document
   * or a spreadsheet is, and then refused as unreadable, saying why (docs/sources.md).
   */
  'office-encrypted': {
    mime: 'application/x-ms-office-encrypted',
    extensions: [],
    detectedBy: 'cfb',
  },
} as const satisfies Record<string, FileFormat>;

export type FormatName = keyof typeof FORMATS;

const IMAGE_FORMATS = [
  'png',
  'jpeg',
  'gif',
  'webp',
  'tiff',
  'bmp',
  'avif',
  'heic',
] as const satisfies readonly FormatName[];

const file = { inline: false, url: true, upload: true, dataUrl: true } as const;

/** Every format, in FORMATS' order: what `auto` reads (each is some kind's). */
const ALL_FORMATS = Object.keys(FORMATS) as FormatName[];

/** The kinds, in the order forms and documents list them. */
export const SOURCE_KINDS = {
  text: {
    label: 'Text',
    noun: 'a text file',
    // A URL of a text file is not read: a URL is fetched as a webpage, PDF or image.
    inputs: { inline: true, url: false, upload: true, dataUrl: false },
    layout: 'flow',
    recordType: 'text',
    formats: ['txt', 'md', 'csv', 'tsv', 'json', 'html'],
    fallback: true,
    // Never fetched as a file; inside a message it is held to the cap of a fetched page's HTML.
    downloadCap: 'MAX_HTML_BYTES',
    readAgainNotStored: true,
  },
  image: {
    label: 'Image',
    noun: 'an image',
    inputs: file,
    layout: 'pages',
    recordType: 'image',
    formats: IMAGE_FORMATS,
    drawnAs: 'image',
    downloadCap: 'MAX_IMAGE_BYTES',
  },
  pdf: {
    label: 'PDF',
    noun: 'a PDF',
    inputs: file,
    layout: 'pages',
    recordType: 'pdf',
    formats: ['pdf'],
    drawnAs: 'pdf',
    pageWindows: true,
    downloadCap: 'MAX_PDF_BYTES',
  },
  webpage: {
    label: 'Webpage',
    noun: 'a webpage',
    inputs: { inline: false, url: true, upload: false, dataUrl: false },
    layout: 'flow',
    recordType: 'url',
    formats: [],
  },
  document: {
    label: 'Document or presentation',
    noun: 'a document',
    inputs: file,
    layout: 'pages',
    recordType: 'document',
    formats: ['docx', 'doc', 'odt', 'rtf', 'pptx', 'ppt', 'odp', 'office-encrypted'],
    convertedToPdf: true,
    drawnAs: 'pdf',
    pageWindows: true,
    downloadCap: 'MAX_DOCUMENT_BYTES',
  },
  spreadsheet: {
    label: 'Spreadsheet',
    noun: 'a spreadsheet',
    inputs: file,
    layout: 'sheets',
    recordType: 'spreadsheet',
    formats: ['xlsx', 'xls', 'ods', 'csv', 'tsv', 'office-encrypted'],
    downloadCap: 'MAX_SPREADSHEET_BYTES',
  },
  email: {
    label: 'Email',
    noun: 'an email message',
    inputs: file,
    layout: 'parts',
    recordType: 'email',
    formats: ['eml', 'msg'],
    downloadCap: 'MAX_EMAIL_BYTES',
  },
  /** Its YAML front matter read as metadata, its body as text (docs/sources.md#markdown). */
  markdown: {
    label: 'Markdown',
    noun: 'a Markdown file',
    inputs: { inline: false, url: false, upload: true, dataUrl: false },
    layout: 'flow',
    recordType: 'markdown',
    formats: ['md'],
    // Read as text is: inside a message held to a fetched page's HTML cap, and read again
    // rather than stored.
    downloadCap: 'MAX_HTML_BYTES',
    readAgainNotStored: true,
  },
  /**
   * Any file the other kinds read, its kind decided by its content (autoKindFor). An upload is
   * recognised at once and stored as the kind found; a URL is stored as `auto` until the worker
   * has fetched it.
   */
  auto: {
    label: 'Any file (detect)',
    noun: 'a file the service reads',
    inputs: file,
    layout: 'detected',
    recordType: 'auto',
    formats: ALL_FORMATS,
  },
} as const satisfies Record<string, SourceKind>;

export type SourceType = keyof typeof SOURCE_KINDS;

/** Every `type` a record can show, in registry order (a tuple, for enums). */
export const SOURCE_TYPES = Object.keys(SOURCE_KINDS) as [SourceType, ...SourceType[]];

export function isSourceType(value: unknown): value is SourceType {
  return typeof value === 'string' && Object.hasOwn(SOURCE_KINDS, value);
}

/** A source whose citations carry a page and boxes, and which gets page previews. */
export function hasPages(type: SourceType): boolean {
  return SOURCE_KINDS[type].layout === 'pages';
}

/** A kind's traits (SourceKind): read through this, since most kinds leave most of them out. */
export function traitsOf(type: SourceType): SourceKind {
  return SOURCE_KINDS[type];
}

/**
 * Whether a source of `type` may be worked as page windows: a kind that is, or `auto`, whose
 * URL may turn out to be one once fetched.
 */
export function mayWorkInPageWindows(type: SourceType): boolean {
  return traitsOf(type).pageWindows === true || SOURCE_KINDS[type].layout === 'detected';
}

/** What the single record shows as `source.type` (webpages are `url` there). */
export type RecordSourceType = (typeof SOURCE_KINDS)[SourceType]['recordType'];

/** The single record's `source.type` values, in registry order and without repeats. */
export const RECORD_SOURCE_TYPES = [
  ...new Set(SOURCE_TYPES.map((t) => SOURCE_KINDS[t].recordType)),
] as [RecordSourceType, ...RecordSourceType[]];

export function recordSourceType(type: SourceType): RecordSourceType {
  return SOURCE_KINDS[type].recordType;
}

/** The kind a single record's `source.type` names (the dashboard reads records, not rows). */
export function typeOfRecord(recordType: string): SourceType | undefined {
  return SOURCE_TYPES.find((t) => SOURCE_KINDS[t].recordType === recordType);
}

/** Whether `kind` reads files of `format` (an upload's or a fetched file's detected format). */
export function acceptsFormat(type: SourceType, format: FormatName): boolean {
  return (SOURCE_KINDS[type].formats as readonly FormatName[]).includes(format);
}

/** The kinds that take `source` in the given way, in registry order. */
export function typesTaking(input: keyof SourceInputs): SourceType[] {
  return SOURCE_TYPES.filter((t) => SOURCE_KINDS[t].inputs[input]);
}

/** The first kind (in registry order, `auto` aside) that takes uploaded files of `format`. */
export function uploadKindFor(format: FormatName): SourceType | undefined {
  return SOURCE_TYPES.find(
    (t) => t !== 'auto' && SOURCE_KINDS[t].inputs.upload && acceptsFormat(t, format),
  );
}

/**
 * The kinds `auto` tries, in registry order with the fallbacks last: files with a layout of
 * their own before text, so that a CSV or TSV file is read as a spreadsheet (cells cited) and a
 * message as an email.
 */
const readers = SOURCE_TYPES.filter((t) => SOURCE_KINDS[t].layout !== 'detected');
const isFallback = (t: SourceType) => 'fallback' in SOURCE_KINDS[t];
const AUTO_ORDER: readonly SourceType[] = [
  ...readers.filter((t) => !isFallback(t)),
  ...readers.filter(isFallback),
];

/**
 * The kind `auto` reads a file of `format` as. A URL serving HTML is a webpage (rendered);
 * an uploaded HTML file is text (read statically), as for `text`.
 */
export function autoKindFor(format: FormatName, via: 'url' | 'upload'): SourceType | undefined {
  if (format === 'html' && via === 'url') return 'webpage';
  return kindsReading(format)[0];
}

/**
 * Every kind that reads files of `format`, in the order `auto` prefers them (a CSV file: a
 * spreadsheet, else text). An email's attachment is read by the first one the worker enables.
 */
export function kindsReading(format: FormatName): SourceType[] {
  return AUTO_ORDER.filter((t) => acceptsFormat(t, format));
}

/** The format whose content type records show as `mime` (sniffers speak content types). */
export function formatOfMime(mime: string): FormatName | undefined {
  return (Object.keys(FORMATS) as FormatName[]).find((f) => FORMATS[f].mime === mime);
}
