import sharp, { type Metadata, type OutputInfo } from 'sharp';
import {
  ExtractionFailure,
  type GroundingLine,
  type PreparedSource,
  type PublicModel,
} from '@xt/contract';
import { ocrLines, type OcrOptions } from '../ocr/index.ts';
import { encodeForModel } from './encode.ts';
import { visionSize } from './vision-size.ts';

export interface ImageOptions {
  model: PublicModel;
  /** Largest width × height accepted, checked against the header before any decoding. */
  maxPixels: number;
  /** Read the image's lines with OCR to locate values in (citations asked for). */
  ocr?: OcrOptions | undefined;
  /**
   * false: the model takes no images, so the image goes as its OCR text (needs `ocr`), with
   * its lines kept as grounding whether or not citations were asked for.
   */
  images?: boolean | undefined;
}

/** Tesseract reads a photo or scan well at this size; larger only costs time. */
const MAX_OCR_SIDE = 3_000;
/**
 * The resolution Tesseract is told a page-sized image has. Photos and scans rarely declare a
 * true one (a JPEG's 72 is a default; the PNG read here declares none, so Tesseract assumes 70),
 * and at that guess it dropped short numbers standing alone, such as a quantity column: on the
 * shipped scans (datasets/invoices-scanned, 1,259–1,778 px), told nothing it read the quantity
 * column of 6 of 8, told 200 or 250 of 6 or 7, told 300 or 400 of all 8. Told 300, the same
 * scans shrunk to half size lost words instead, so a smaller image is told nothing, as before.
 */
const IMAGE_OCR_DPI = 300;
/** The longer side from which an image is read as a page scanned at IMAGE_OCR_DPI. */
const SCAN_SIDE = 1_200;

/**
 * Raster formats the prebuilt libvips decodes and that real image sources use. SVG is refused
 * on purpose: it is a document, not an image (external references, scripts, entity expansion,
 * unbounded canvas), and a page of vector content is better submitted as a webpage, where it is
 * rendered in the sandboxed browser with every request checked.
 */
const RASTER_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif']);

function classify(err: unknown): ExtractionFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (/unsupported image format/i.test(message)) {
    return new ExtractionFailure(
      'SOURCE_UNSUPPORTED',
      'The source is not an image format the service reads.',
      {
        cause: err,
      },
    );
  }
  if (/pixel limit/i.test(message)) {
    return new ExtractionFailure('SOURCE_TOO_LARGE', 'The image has too many pixels.', {
      cause: err,
    });
  }
  return new ExtractionFailure('SOURCE_UNREADABLE', `The image could not be decoded: ${message}`, {
    cause: err,
  });
}

async function readHeader(bytes: Buffer, maxPixels: number): Promise<Metadata> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: maxPixels }).metadata();
  } catch (err) {
    throw classify(err);
  }
  if (meta.format === 'svg') {
    throw new ExtractionFailure(
      'SOURCE_UNSUPPORTED',
      'SVG images are not accepted; submit the SVG as a webpage or send a PNG or JPEG.',
    );
  }
  if (!RASTER_FORMATS.has(meta.format) || (meta.format === 'heif' && meta.compression !== 'av1')) {
    throw new ExtractionFailure(
      'SOURCE_UNSUPPORTED',
      `Images in ${meta.format} format are not accepted.`,
    );
  }
  // The header is all that has been read: refuse a pixel bomb before libvips allocates for it.
  if (meta.width * meta.height > maxPixels) {
    throw new ExtractionFailure(
      'SOURCE_TOO_LARGE',
      `The image is ${meta.width}×${meta.height} pixels; the limit is ${maxPixels} pixels.`,
    );
  }
  return meta;
}

/**
 * Turns image bytes into the one image part the model needs: upright (EXIF), first frame
 * only, flattened on white, shrunk to exactly what the chosen model looks at, re-encoded as
 * PNG or JPEG and carried as a data URL.
 *
 * Transparency is flattened on white because servers differ in what they put behind it
 * (several drop alpha, leaving black), and black text on black is lost; white is what a viewer
 * or a printed page shows.
 */
export async function prepareImage(bytes: Buffer, opts: ImageOptions): Promise<PreparedSource> {
  const meta = await readHeader(bytes, opts.maxPixels);
  if (opts.images === false) return imageAsText(bytes, opts);
  const target = visionSize(opts.model, meta.autoOrient);
  let raw: { data: Buffer; info: OutputInfo };
  try {
    raw = await sharp(bytes, {
      limitInputPixels: opts.maxPixels,
      // Tolerate the minor encoder slips common in camera and scanner files; truncated or
      // corrupt pixel data still fails.
      failOn: 'error',
      autoOrient: true,
      pages: 1,
      page: 0,
      sequentialRead: true,
    })
      .resize(target.width, target.height, { fit: 'fill', kernel: 'lanczos3' })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw classify(err);
  }
  const encoded = await encodeForModel(raw.data, {
    width: raw.info.width,
    height: raw.info.height,
  });
  const prepared: PreparedSource = {
    parts: [
      {
        kind: 'image',
        dataUrl: encoded.dataUrl,
        width: encoded.width,
        height: encoded.height,
        detail: 'high',
      },
    ],
  };
  if (!opts.ocr) return prepared;
  const lines = await readLines(bytes, opts.maxPixels, opts.ocr);
  return { ...prepared, grounding: { kind: 'pages', pages: [{ page: 1, lines, ocr: true }] } };
}

/**
 * For a model that takes no images: the image's OCR lines in reading order as its text. The
 * lines are kept as grounding even without citations, since reading them cost the same and a
 * value's page and box then come with it if citations are asked of a reuse.
 */
async function imageAsText(bytes: Buffer, opts: ImageOptions): Promise<PreparedSource> {
  if (!opts.ocr) throw new Error('an image read as text needs OCR options');
  let lines: GroundingLine[];
  try {
    lines = await readLines(bytes, opts.maxPixels, opts.ocr);
  } catch (err) {
    throw classify(err);
  }
  if (lines.length === 0)
    throw new ExtractionFailure(
      'SOURCE_UNREADABLE',
      'The model takes no images, and OCR found no text in the image.',
    );
  return {
    parts: [{ kind: 'text', text: lines.map((line) => line.text).join('\n'), unit: 1 }],
    grounding: { kind: 'pages', pages: [{ page: 1, lines, ocr: true }] },
    imagesAsText: { pages: 0, images: 1, leftOut: 0 },
  };
}

/**
 * The image's lines by OCR, from the upright image at up to MAX_OCR_SIDE pixels: boxes are
 * fractions of it, the same fractions of the image the model was sent.
 */
async function readLines(bytes: Buffer, maxPixels: number, ocr: OcrOptions) {
  const { data, info } = await sharp(bytes, {
    limitInputPixels: maxPixels,
    failOn: 'error',
    autoOrient: true,
    pages: 1,
    page: 0,
  })
    .resize(MAX_OCR_SIDE, MAX_OCR_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true });
  const scanned = Math.max(info.width, info.height) >= SCAN_SIDE;
  return ocrLines(data, info, ocr, scanned ? IMAGE_OCR_DPI : undefined);
}
