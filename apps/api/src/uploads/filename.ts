/** Longest file name kept, in characters; longer names keep their extension. */
export const MAX_FILE_NAME_CHARS = 255;

/** What records show when a file has no usable name (and for data: URLs). */
export const UNNAMED_UPLOAD = 'upload';

// C0/C1 controls and the bidirectional overrides that can make `exe.pdf` display as `fdp.exe`.
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The client's file name made safe to show: the last path segment only, no control or
 * direction-changing characters, valid Unicode, at most 255 characters. It is only ever
 * displayed and stored as text; the service never uses it as a path.
 */
export function displayFileName(raw: string | undefined): string {
  if (!raw) return UNNAMED_UPLOAD;
  const segment = raw.toWellFormed().normalize('NFC').split(/[/\\]/).pop() ?? '';
  const name = segment.replace(UNSAFE, '').trim();
  if (name === '' || name === '.' || name === '..') return UNNAMED_UPLOAD;
  const chars = [...name];
  if (chars.length <= MAX_FILE_NAME_CHARS) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  const extChars = [...ext].length;
  return chars.slice(0, MAX_FILE_NAME_CHARS - extChars).join('') + ext;
}
