export type SniffedType =
  | 'application/pdf'
  | 'image/png'
  | 'image/jpeg'
  | 'image/webp'
  | 'image/gif'
  | 'image/svg+xml'
  | 'image/avif'
  | 'image/heic'
  | 'image/tiff'
  | 'image/bmp'
  | 'text/html';

function startsWith(bytes: Buffer, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

function ascii(bytes: Buffer, start: number, end: number): string {
  return bytes.subarray(start, end).toString('latin1');
}

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
/** Generic HEIF brands: the compatible-brands list says whether the payload is AV1 or HEVC. */
const GENERIC_HEIF = new Set(['mif1', 'msf1']);

/** ISO-BMFF `ftyp` box: major brand at 8, compatible brands from 16 to the box end. */
function sniffFtyp(bytes: Buffer): SniffedType | null {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return null;
  const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 4096);
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, at + 4));
  const major = brands[0] ?? '';
  if (AVIF_BRANDS.has(major)) return 'image/avif';
  if (HEIF_BRANDS.has(major)) return 'image/heic';
  if (GENERIC_HEIF.has(major)) {
    if (brands.some((b) => AVIF_BRANDS.has(b))) return 'image/avif';
    return 'image/heic';
  }
  return null;
}

/** BMP has a two-letter signature only, so the DIB header size must also be a known one. */
const DIB_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

function sniffBmp(bytes: Buffer): boolean {
  if (bytes.length < 18 || !startsWith(bytes, [0x42, 0x4d])) return false;
  return DIB_HEADER_SIZES.has(bytes.readUInt32LE(14));
}

/** Skips a UTF-8 BOM, whitespace, the XML declaration, comments, PIs and a doctype. */
function skipXmlProlog(text: string): string {
  let rest = text.replace(/^\uFEFF/, '').trimStart();
  for (;;) {
    const prolog = /^(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[^\]]*\]\s*)?>)/i.exec(
      rest,
    );
    if (!prolog) return rest;
    rest = rest.slice(prolog[0].length).trimStart();
  }
}

/** The tag list of the WHATWG MIME sniffing "HTML" rule: each must be followed by space or `>`. */
const HTML_OPENERS = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];

export function looksLikeHtml(text: string): boolean {
  const lower = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 32)
    .toLowerCase();
  return HTML_OPENERS.some((tag) => {
    if (!lower.startsWith(tag)) return false;
    const next = lower.charAt(tag.length);
    return next === '>' || next === ' ' || next === '\t' || next === '\n' || next === '\r';
  });
}

/** How far into a file the textual checks look; prologs longer than this are not expected. */
const TEXT_WINDOW = 4096;
/** Acrobat accepts `%PDF-` anywhere in the first KiB, and so do real-world files. */
const PDF_WINDOW = 1024;

/**
 * Decides a content type from the bytes alone (magic numbers), because a server's
 * Content-Type header can be wrong or hostile. `null` when none of the known types matches.
 */
export function sniffContentType(bytes: Buffer): SniffedType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  const head6 = ascii(bytes, 0, 6);
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
    return 'image/tiff';
  }
  const ftyp = sniffFtyp(bytes);
  if (ftyp) return ftyp;
  if (sniffBmp(bytes)) return 'image/bmp';
  if (ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  const text = bytes.subarray(0, TEXT_WINDOW).toString('utf8');
  const afterProlog = skipXmlProlog(text);
  if (/^<svg[\s>/]/.test(afterProlog)) return 'image/svg+xml';
  // Plain HTML by the WHATWG rule, or XHTML behind an XML declaration and doctype.
  if (looksLikeHtml(text) || looksLikeHtml(afterProlog)) return 'text/html';
  // Checked last so an HTML page that merely quotes the marker stays HTML.
  if (bytes.subarray(0, PDF_WINDOW).includes('%PDF-', 0, 'latin1')) return 'application/pdf';
  return null;
}

export function isImageType(type: SniffedType | null): boolean {
  return type !== null && type.startsWith('image/');
}
