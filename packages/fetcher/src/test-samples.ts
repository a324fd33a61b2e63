/**
 * Generated file samples for the fetcher tests (not exported from the package).
 */
import { deflateSync } from 'node:zlib';

export const bytes = (...parts: Array<string | number[] | Buffer>): Buffer =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  );

function crc32(buf: Buffer): number {
  let crc = ~0;
  for (const byte of buf) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = bytes(type, data);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A complete, valid 1×1 grey PNG built from scratch. */
export function tinyPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 128]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export function ftyp(major: string, compatible: string[]): Buffer {
  const size = 16 + compatible.length * 4;
  const head = Buffer.alloc(4);
  head.writeUInt32BE(size);
  return bytes(head, 'ftyp', major, [0, 0, 0, 0], ...compatible, Buffer.alloc(32));
}

export function bmp(dibSize: number): Buffer {
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(dibSize, 14);
  return header;
}

export const SAMPLES = {
  pdf: bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n'),
  png: tinyPng(),
  jpeg: bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0]),
  gif: bytes('GIF89a', [1, 0, 1, 0, 0, 0, 0]),
  webp: bytes('RIFF', [26, 0, 0, 0], 'WEBPVP8 ', Buffer.alloc(18)),
};
