/** The signature every OLE compound file (an Outlook `.msg`) starts with. */
const COMPOUND_FILE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * Which of the two message formats a file the email kind accepted is: @xt/formats recognised it
 * by content as one of them, and only an Outlook message is a compound file.
 */
export function emailFormatOf(bytes: Uint8Array): 'eml' | 'msg' {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(8, bytes.byteLength)).equals(
    COMPOUND_FILE,
  )
    ? 'msg'
    : 'eml';
}
