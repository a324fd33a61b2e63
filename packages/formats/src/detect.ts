import { open, readFile } from 'node:fs/promises';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { formatOfMime, type FormatName } from '@xt/contract';
import { compoundFormatOf } from './compound.ts';
import { compoundFileProblem } from './compound-bounds.ts';
import { sniffContentType } from './sniff.ts';
import { isEightBitMessage, TEXT_SAMPLE_BYTES, textFormatOf } from './text.ts';
import { damagedOfficeFile } from './zip-names.ts';

/** A file to recognise: its bytes, or a file on disk (an upload the API has spooled). */
export type FileInput = { bytes: Uint8Array } | { path: string };

export type Detection =
  | { format: FormatName }
  /**
   * Not a format the service reads; `found` says what it is, for messages. `damaged`: the file
   * is of a kind that is read, but its structure lies (a compound file claiming more than it
   * holds), so it is unreadable rather than of another kind.
   */
  | { format: null; found: string; damaged?: true };

export interface DetectOptions {
  /**
   * The file's name (or a URL's path), which only chooses among text formats for text of no
   * other shape: Markdown, HTML, or CSV and TSV whose rows differ in length.
   */
  name?: string | undefined;
  /**
   * The sender asked for a table (a `spreadsheet`): text with a delimiter on most of its rows is
   * then CSV or TSV even when its rows differ in length and no name says so.
   */
  table?: boolean | undefined;
  /**
   * An OLE compound file is read whole to list its streams: past this size it is not
   * recognised (the service's upload and download caps are lower).
   */
  maxCompoundBytes?: number;
}

const DEFAULT_MAX_COMPOUND_BYTES = 64 * 1024 * 1024;

/** What file-type names that the service does not read, said plainly. */
const NAMED: Record<string, string> = {
  zip: 'a ZIP archive',
  exe: 'a Windows executable',
  elf: 'an ELF executable',
  gz: 'a gzip archive',
  '7z': 'a 7-Zip archive',
  rar: 'a RAR archive',
  tar: 'a tar archive',
  cfb: 'an OLE compound file of another kind',
  epub: 'an EPUB book',
};

/**
 * A macro-enabled Word, Excel or PowerPoint file (DOCM, XLSM, PPTM) is the DOCX, XLSX or PPTX
 * package it names, with a VBA project beside its parts: LibreOffice lays it out and the sheet
 * reader reads it as one, and its macros never run (docs/sources.md).
 */
const MACRO_ENABLED: Record<string, FormatName> = {
  'application/vnd.ms-word.document.macroenabled.12': 'docx',
  'application/vnd.ms-excel.sheet.macroenabled.12': 'xlsx',
  'application/vnd.ms-powerpoint.presentation.macroenabled.12': 'pptx',
};

async function headOf(input: FileInput): Promise<{ head: Buffer; complete: boolean }> {
  if ('bytes' in input) {
    const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
    return {
      head: bytes.subarray(0, TEXT_SAMPLE_BYTES),
      complete: bytes.length <= TEXT_SAMPLE_BYTES,
    };
  }
  const file = await open(input.path, 'r');
  try {
    const head = Buffer.alloc(TEXT_SAMPLE_BYTES);
    const { bytesRead } = await file.read(head, 0, TEXT_SAMPLE_BYTES, 0);
    const { size } = await file.stat();
    return { head: head.subarray(0, bytesRead), complete: size <= bytesRead };
  } finally {
    await file.close();
  }
}

async function wholeOf(input: FileInput, maxBytes: number): Promise<Uint8Array | null> {
  if ('bytes' in input) return input.bytes.length <= maxBytes ? input.bytes : null;
  const file = await open(input.path, 'r');
  try {
    if ((await file.stat()).size > maxBytes) return null;
  } finally {
    await file.close();
  }
  return readFile(input.path);
}

/** UTF-8 text without NUL bytes, allowing a multi-byte character cut off at the sample's end. */
function decodeText(head: Buffer, complete: boolean): string | null {
  if (head.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: !complete });
  } catch {
    return null;
  }
}

/**
 * Recognises a file by its content alone (docs/sources.md): signatures for PDFs, images and
 * RTF; ZIP archives by their manifest (file-type reads it, with bounds on entries and sizes, so
 * an expansion bomb costs nothing here), an Office file's parts without a readable one named as
 * damaged; OLE compound files by their streams; text by its shape. Never by the name or a declared content type, which the sender controls.
 */
export async function detectFormat(input: FileInput, opts: DetectOptions = {}): Promise<Detection> {
  const { head, complete } = await headOf(input);
  if (head.length === 0) return { format: null, found: 'an empty file' };
  const sniffed = sniffContentType(head);
  if (sniffed === 'image/svg+xml')
    return { format: null, found: 'an SVG drawing (a document, not an image)' };
  const signed = sniffed && sniffed !== 'text/html' ? formatOfMime(sniffed) : undefined;
  if (signed) return { format: signed };
  if (head.subarray(0, 5).toString('latin1') === '{\\rtf') return { format: 'rtf' };

  const typed = await (
    'bytes' in input ? fileTypeFromBuffer(input.bytes) : fileTypeFromFile(input.path)
  ).catch(() => undefined);
  if (typed) {
    const byMime = formatOfMime(typed.mime) ?? MACRO_ENABLED[typed.mime];
    if (byMime) return { format: byMime };
    if (typed.ext === 'cfb') {
      const whole = await wholeOf(input, opts.maxCompoundBytes ?? DEFAULT_MAX_COMPOUND_BYTES);
      const compound = whole ? compoundFormatOf(whole) : null;
      if (compound) return { format: compound };
      const damaged = whole ? compoundFileProblem(whole) : null;
      if (damaged)
        return { format: null, found: `a damaged OLE compound file (${damaged})`, damaged: true };
    }
    if (typed.ext === 'zip') {
      const damaged = damagedOfficeFile(head);
      if (damaged) return { format: null, found: damaged };
    }
    return { format: null, found: NAMED[typed.ext] ?? `a file of another kind (${typed.mime})` };
  }

  const text = decodeText(head, complete);
  if (text === null) {
    if (isEightBitMessage(head)) return { format: 'eml' };
    return { format: null, found: 'an unrecognised binary format' };
  }
  if (text.trim() === '') return { format: null, found: 'an empty file' };
  return { format: textFormatOf(text, { complete, name: opts.name, table: opts.table }) };
}
