import CFB from 'cfb';
import { unzipSync } from 'fflate';
import type { FormatName } from '@xt/contract';
import { readCompound, xlsIsEncrypted } from './compound.ts';

/** A manifest larger than this is not an OpenDocument manifest: it is not inflated. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

function stream(container: CFB.CFB$Container, name: string): Buffer | null {
  const entry = CFB.find(container, name);
  const content = entry?.content;
  return content ? Buffer.from(content as Uint8Array) : null;
}

/** Word 97–2003: the File Information Block's fEncrypted flag (also set for XOR obfuscation). */
function wordEncrypted(container: CFB.CFB$Container): boolean {
  const fib = stream(container, 'WordDocument');
  return fib !== null && fib.length >= 12 && (fib.readUInt16LE(0x0a) & 0x0100) !== 0;
}

/** PowerPoint 97–2003: the Current User atom's header token says whether the file is encrypted. */
function powerPointEncrypted(container: CFB.CFB$Container): boolean {
  if (CFB.find(container, 'EncryptedSummary')) return true;
  const user = stream(container, 'Current User');
  return user !== null && user.length >= 16 && user.readUInt32LE(12) === 0xf3d1c4df;
}

/** OpenDocument: the manifest lists encryption data for the encrypted entries. */
function openDocumentEncrypted(bytes: Uint8Array): boolean {
  try {
    const entries = unzipSync(bytes, {
      filter: (file) =>
        file.name === 'META-INF/manifest.xml' && file.originalSize <= MAX_MANIFEST_BYTES,
    });
    const manifest = entries['META-INF/manifest.xml'];
    return manifest !== undefined && Buffer.from(manifest).includes('encryption-data');
  } catch {
    return false;
  }
}

/**
 * Whether a file of a recognised format is password-protected, its content encrypted, so that it
 * is refused as unreadable before any work is spent on it (docs/sources.md): Office's wrapper
 * around an encrypted DOCX, XLSX or PPTX; Word, Excel and PowerPoint 97–2003 files with their
 * encryption flags; OpenDocument files whose manifest lists encryption. A file that is only
 * protected against editing (read-only, forms) is readable and is not counted.
 */
export function isPasswordProtected(bytes: Uint8Array, format: FormatName): boolean {
  switch (format) {
    case 'office-encrypted':
      return true;
    case 'xls':
      return xlsIsEncrypted(bytes);
    case 'doc':
    case 'ppt': {
      const container = readCompound(bytes);
      if (!container) return false;
      return format === 'doc' ? wordEncrypted(container) : powerPointEncrypted(container);
    }
    case 'odt':
    case 'odp':
    case 'ods':
      return openDocumentEncrypted(bytes);
    default:
      return false;
  }
}
