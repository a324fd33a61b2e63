import { createHash, type Hash } from 'node:crypto';
import { TextDecoder } from 'node:util';

/** What the API learns about an uploaded file while it streams past, without keeping it. */
export interface InspectedContent {
  size: number;
  sha256: string;
  /** The first bytes, for sniffing by magic numbers. */
  head: Buffer;
  /** Whole file is valid UTF-8 without NUL bytes (what a text source must be). */
  utf8Text: boolean;
  /** UTF-16 length of the decoded text, as `MAX_TEXT_CHARS` counts a text field. */
  textLength: number;
}

export const HEAD_BYTES = 4096;

/**
 * Hashes, sniffs and checks UTF-8 piece by piece. Decoding stops at the first invalid byte, so a
 * binary upload costs a hash and little else.
 */
export class ContentInspector {
  private readonly hash: Hash = createHash('sha256');
  private readonly headPieces: Buffer[] = [];
  private headBytes = 0;
  private size = 0;
  private decoder: TextDecoder | null = new TextDecoder('utf-8', { fatal: true });
  private textLength = 0;

  update(piece: Buffer): void {
    this.hash.update(piece);
    this.size += piece.length;
    if (this.headBytes < HEAD_BYTES) {
      const take = piece.subarray(0, HEAD_BYTES - this.headBytes);
      this.headPieces.push(Buffer.from(take));
      this.headBytes += take.length;
    }
    if (this.decoder) {
      if (piece.includes(0)) {
        this.decoder = null;
        return;
      }
      try {
        this.textLength += this.decoder.decode(piece, { stream: true }).length;
      } catch {
        this.decoder = null;
      }
    }
  }

  finish(): InspectedContent {
    let utf8Text = this.decoder !== null;
    if (this.decoder) {
      try {
        this.textLength += this.decoder.decode().length;
      } catch {
        // A multi-byte sequence cut off at the end of the file.
        utf8Text = false;
      }
    }
    return {
      size: this.size,
      sha256: this.hash.digest('hex'),
      head: Buffer.concat(this.headPieces, this.headBytes),
      utf8Text,
      textLength: this.textLength,
    };
  }
}

export function inspectBuffer(bytes: Buffer): InspectedContent {
  const inspector = new ContentInspector();
  // In pieces, so the decoder never builds one string of the whole file.
  for (let at = 0; at < bytes.length; at += 1024 * 1024)
    inspector.update(bytes.subarray(at, at + 1024 * 1024));
  return inspector.finish();
}
