import { SOURCE_KINDS, SOURCE_TYPES, traitsOf, type SourceType } from '@xt/contract';
import type { PdfMode } from './pdf/prepare-pdf.ts';

/**
 * The limits sources are prepared under, named as the worker's configuration names them
 * (docs/api.md#limits): the worker passes its config, the benchmark its own values.
 */
export interface SourcesConfig {
  CHROMIUM_PATH?: string | undefined;
  /** Who Chromium runs as when the process is root; `nobody` when absent. */
  BROWSER_USER?: string | undefined;
  SOURCE_ALLOWLIST: string;
  FETCH_TIMEOUT_MS: number;
  MAX_REDIRECTS: number;
  PREP_THREADS: number;
  PREP_TIMEOUT_MS: number;
  PREP_TEXT_TIMEOUT_MS: number;
  PREP_THREAD_HEAP_MB: number;
  /** All the memory of one preparation process, in MiB (pool.ts); 0 or absent: unbounded. */
  PREP_MEMORY_MB?: number | undefined;
  OCR_TIMEOUT_MS: number;
  /** Tesseract's languages; English when absent. */
  OCR_LANGUAGES?: string | undefined;
  PDF_MODE: PdfMode;
  MAX_PDF_BYTES: number;
  MAX_PDF_PAGES: number;
  MAX_PDF_IMAGE_PAGES: number;
  MAX_IMAGE_BYTES: number;
  MAX_IMAGE_PIXELS: number;
  RENDER_CONCURRENCY: number;
  PAGE_TIMEOUT_MS: number;
  NETWORK_IDLE_MS: number;
  BROWSER_MAX_PAGES: number;
  MAX_HTML_BYTES: number;
  MAX_EMAIL_BYTES: number;
  MAX_EMAIL_PARTS: number;
  MAX_EMAIL_IMAGES: number;
  /** Download cap of a spreadsheet fetched from a URL. */
  MAX_SPREADSHEET_BYTES: number;
  /** Cells with a value in a whole workbook at most (docs/sources.md#spreadsheets). */
  MAX_SHEET_CELLS: number;
  /** Bounds on a ZIP-based file (XLSX, ODS, DOCX, PPTX, ODT, ODP) before it is parsed. */
  MAX_ARCHIVE_EXPANDED_BYTES: number;
  MAX_ARCHIVE_ENTRIES: number;
  MAX_ARCHIVE_RATIO: number;
  /** LibreOffice's deadline and address-space bound when it rewrites a file (XLS, ODS). */
  CONVERT_TIMEOUT_MS: number;
  CONVERT_MAX_MEMORY_MB: number;
  /** LibreOffice's `soffice`; Debian's when absent. */
  CONVERTER_PATH?: string | undefined;
  /** Who LibreOffice runs as when the process is root; `nobody` when absent. */
  CONVERTER_USER?: string | undefined;
  /** The helper launcher's socket: Chromium and LibreOffice are started by it. */
  HELPER_LAUNCHER?: string | undefined;
  /** LibreOffice conversions at once in this process. */
  CONVERT_CONCURRENCY: number;
  /** Refuse to convert where LibreOffice could not have a network namespace of its own. */
  CONVERT_REQUIRE_ISOLATION?: boolean | undefined;
  /** Download cap of a document or presentation fetched from a URL. */
  MAX_DOCUMENT_BYTES: number;
}

/**
 * The download cap of each kind read from a file, by the setting the registry names for it
 * (docs/api.md#limits); text's is what it is held to inside a message, never being fetched.
 */
export function fetchCaps(config: SourcesConfig): Partial<Record<SourceType, number>> {
  const caps: Partial<Record<SourceType, number>> = {};
  for (const type of SOURCE_TYPES) {
    const setting = traitsOf(type).downloadCap;
    if (setting) caps[type] = config[setting];
  }
  // Any of the file kinds, or a page (then rendered in the browser, under its own caps).
  const largest = Math.max(...Object.values(caps));
  for (const type of SOURCE_TYPES)
    if (SOURCE_KINDS[type].layout === 'detected') caps[type] = largest;
  return caps;
}
