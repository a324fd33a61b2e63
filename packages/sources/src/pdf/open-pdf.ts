import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ExtractionFailure } from '@xt/contract';

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
/** pdf.js reads these as file paths in Node (never fetched over a network); trailing slash required. */
const assetDir = (name: string) => join(pdfjsRoot, name) + '/';

export interface OpenedPdf {
  doc: PDFDocumentProxy;
  close: () => Promise<void>;
}

/**
 * Opens PDF bytes with pdf.js configured for untrusted input. pdf.js 6 no longer has an
 * eval-based font path (the old `isEvalSupported` option is gone), and in Node it runs its
 * parser in this thread rather than spawning a worker. Fonts are drawn from the embedded data
 * or the bundled standard fonts, never from the system; images above `maxImagePixels` are
 * skipped instead of decoded.
 */
export async function openPdf(
  bytes: Uint8Array,
  opts: { maxImagePixels: number },
): Promise<OpenedPdf> {
  const task = getDocument({
    // A copy: pdf.js refuses Buffers and transfers (detaches) the array it is given, which
    // would break the caller's bytes or, for a pooled Buffer, throw.
    data: new Uint8Array(bytes),
    maxImageSize: opts.maxImagePixels,
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: false,
    enableXfa: false,
    standardFontDataUrl: assetDir('standard_fonts'),
    cMapUrl: assetDir('cmaps'),
    cMapPacked: true,
    wasmUrl: assetDir('wasm'),
    iccUrl: assetDir('iccs'),
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    return { doc, close: () => task.destroy() };
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw openFailure(err);
  }
}

function openFailure(err: unknown): ExtractionFailure {
  const name = err instanceof Error ? err.name : '';
  const detail = err instanceof Error ? err.message : String(err);
  if (name === 'PasswordException') {
    return new ExtractionFailure('SOURCE_UNREADABLE', 'The PDF is protected by a password.', {
      cause: err,
    });
  }
  return new ExtractionFailure('SOURCE_UNREADABLE', `The file is not a readable PDF (${detail}).`, {
    cause: err,
  });
}
