import CFB from 'cfb';
import type { FormatName } from '@xt/contract';
import { compoundFileProblem } from './compound-bounds.ts';

/**
 * A compound file's directory as cfb reads it, or null when it cannot be read. The structure is
 * checked first: cfb follows a directory tree that loops until it runs out of memory (seconds of
 * CPU and gigabytes, in the API's upload check), and a file whose structure lies is damaged
 * whatever it claims to be.
 */
export function readCompound(bytes: Uint8Array): CFB.CFB$Container | null {
  if (compoundFileProblem(bytes) !== null) return null;
  try {
    return CFB.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      type: 'buffer',
    });
  } catch {
    return null;
  }
}

/**
 * An OLE compound file (Word 97–2003, Excel 97–2003, PowerPoint 97–2003, Outlook messages,
 * and the wrapper Office puts around a password-protected OOXML file) told apart by the names
 * of its streams. `cfb` (SheetJS's reader, the one its spreadsheet parser uses) reads the
 * directory; the streams themselves are not decoded here.
 */
export function compoundFormatOf(bytes: Uint8Array): FormatName | null {
  const container = readCompound(bytes);
  if (!container) return null;
  const names = new Set(container.FileIndex.map((entry) => entry.name));
  if (names.has('EncryptedPackage') || names.has('EncryptionInfo')) return 'office-encrypted';
  if (names.has('WordDocument')) return 'doc';
  if (names.has('Workbook') || names.has('Book')) return 'xls';
  if (names.has('PowerPoint Document')) return 'ppt';
  if (names.has('__properties_version1.0') || [...names].some((n) => n.startsWith('__substg1.0_')))
    return 'msg';
  return null;
}

/** BIFF record types: the workbook globals' end, and the record saying the file is encrypted. */
const BIFF_EOF = 0x000a;
const BIFF_FILEPASS = 0x002f;
/** Records of the globals looked at, at most: FILEPASS comes right after the first BOF. */
const GLOBALS_RECORDS = 10_000;

/**
 * Whether an Excel 97–2003 workbook is password-protected: its globals carry a FILEPASS record
 * (RC4 or XOR encryption of everything after it). Such a file cannot be read without the
 * password, so it is refused as unreadable, saying why, before anything tries to open it.
 */
export function xlsIsEncrypted(bytes: Uint8Array): boolean {
  const container = readCompound(bytes);
  if (!container) return false;
  const entry = CFB.find(container, 'Workbook') ?? CFB.find(container, 'Book');
  if (!entry?.content) return false;
  const stream = Buffer.from(entry.content as Uint8Array);
  let at = 0;
  for (let n = 0; n < GLOBALS_RECORDS && at + 4 <= stream.length; n++) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    if (type === BIFF_FILEPASS) return true;
    if (type === BIFF_EOF) return false;
    at += 4 + length;
  }
  return false;
}
