/**
 * The sources' settings the integration tests of the preparer start from: one prep process,
 * one conversion at a time, deadlines generous for a loaded machine, the worker's caps. Not
 * used by the service, which reads its settings from the worker's config.
 */
import type { SourcesConfig } from './sources-config.ts';

const MB = 1024 * 1024;

export function testSourcesConfig(overrides: Partial<SourcesConfig> = {}): SourcesConfig {
  return {
    SOURCE_ALLOWLIST: '',
    FETCH_TIMEOUT_MS: 30_000,
    MAX_REDIRECTS: 0,
    PREP_THREADS: 1,
    PREP_TIMEOUT_MS: 120_000,
    PREP_TEXT_TIMEOUT_MS: 30_000,
    PREP_THREAD_HEAP_MB: 1024,
    OCR_TIMEOUT_MS: 60_000,
    PDF_MODE: 'auto',
    MAX_PDF_BYTES: 50 * MB,
    MAX_PDF_PAGES: 100,
    MAX_PDF_IMAGE_PAGES: 10,
    MAX_IMAGE_BYTES: 20 * MB,
    MAX_IMAGE_PIXELS: 50_000_000,
    RENDER_CONCURRENCY: 1,
    PAGE_TIMEOUT_MS: 30_000,
    NETWORK_IDLE_MS: 500,
    BROWSER_MAX_PAGES: 10,
    MAX_HTML_BYTES: 10 * MB,
    MAX_EMAIL_BYTES: 50 * MB,
    MAX_EMAIL_PARTS: 200,
    MAX_EMAIL_IMAGES: 20,
    MAX_SPREADSHEET_BYTES: 20 * MB,
    MAX_SHEET_CELLS: 200_000,
    MAX_ARCHIVE_EXPANDED_BYTES: 100 * MB,
    MAX_ARCHIVE_ENTRIES: 10_000,
    MAX_ARCHIVE_RATIO: 200,
    CONVERT_TIMEOUT_MS: 120_000,
    CONVERT_MAX_MEMORY_MB: 2048,
    CONVERT_CONCURRENCY: 1,
    MAX_DOCUMENT_BYTES: 50 * MB,
    ...overrides,
  };
}
