import CFB from 'cfb';
import type { FormatName } from '@xt/contract';

/**
 * An OLE compound file (Word 97–2003, Excel 97–2003, PowerPoint 97–2003, Outlook messages,
 * and the wrapper Office puts around a password-protected OOXML file) told apart by the names
 * of its streams. `cfb` (SheetJS's reader, the one its spreadsheet parser uses) reads the
 * directory; the streams themselves are not decoded here.
 */
export function compoundFormatOf(bytes: Uint8Array): FormatName | null {
  let names: Set<string>;
  try {
    const container = CFB.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      type: 'buffer',
    });
    names = new Set(container.FileIndex.map((entry) => entry.name));
  } catch {
    return null;
  }
  if (names.has('EncryptedPackage') || names.has('EncryptionInfo')) return 'office-encrypted';
  if (names.has('WordDocument')) return 'doc';
  if (names.has('Workbook') || names.has('Book')) return 'xls';
  if (names.has('PowerPoint Document')) return 'ppt';
  if (names.has('__properties_version1.0') || [...names].some((n) => n.startsWith('__substg1.0_')))
    return 'msg';
  return null;
}
