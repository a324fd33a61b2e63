import { HttpError } from '../http/errors/errors.ts';

export function isDataUrl(source: string): boolean {
  return /^\s*data:/i.test(source.slice(0, 16));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes a base64 `data:` URL (RFC 2397). The media type it declares is ignored: the bytes are
 * sniffed like any upload. Returns the 422 message for `source` when it is not valid base64;
 * throws 413 when the decoded bytes would exceed `maxBytes`, before decoding them.
 */
export function decodeDataUrl(
  source: string,
  maxBytes: number,
): { ok: true; bytes: Buffer } | { ok: false; message: string } {
  const comma = source.indexOf(',');
  const header = comma === -1 ? '' : source.slice(0, comma).trim();
  if (comma === -1 || !/;base64$/i.test(header))
    return { ok: false, message: 'source data: URL must be base64 (data:<type>;base64,<data>)' };
  let data = source.slice(comma + 1);
  // Wrapped base64 (MIME style) is still base64.
  if (/\s/.test(data)) data = data.replace(/\s+/g, '');
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const decodedSize = Math.floor((data.length * 3) / 4) - padding;
  if (decodedSize > maxBytes)
    throw new HttpError(
      413,
      'BODY_TOO_LARGE',
      `The uploaded file is larger than the limit of ${maxBytes} bytes.`,
    );
  if (!BASE64.test(data) || data.length % 4 === 1)
    return { ok: false, message: 'source data: URL is not valid base64' };
  return { ok: true, bytes: Buffer.from(data, 'base64') };
}
