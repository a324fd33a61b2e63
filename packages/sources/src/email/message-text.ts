import type { FormatName } from '@xt/contract';
import type { MessageHeaders, ReadMessage } from './message.ts';

/** An attachment as the message's text lists it, and whether it was read. */
export interface Listed {
  name: string;
  /** What it is, as people say it: "PDF", "inline image (PNG)", "a ZIP archive". */
  what: string;
  size: number;
  /** Why it was not read; absent when it was. */
  notRead?: string;
}

export function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A format as people name it: "PDF", "DOCX", "password-protected Office file". */
export function formatLabel(format: FormatName): string {
  if (format === 'office-encrypted') return 'password-protected Office file';
  if (format === 'eml' || format === 'msg') return 'email message';
  return format.toUpperCase();
}

const HEADER_NAMES: [keyof MessageHeaders, string][] = [
  ['from', 'From'],
  ['to', 'To'],
  ['cc', 'Cc'],
  ['date', 'Date'],
  ['subject', 'Subject'],
];

/** One line of the attachment list: "invoice.pdf (PDF, 34 KB)", with why it was not read. */
export function listingLine(a: Listed): string {
  const line = `- ${a.name} (${a.what}, ${describeSize(a.size)})`;
  return a.notRead ? `${line}: not read (${a.notRead})` : line;
}

/**
 * A message as its reader sees it, in text: the headers a reader sees, the body, and the list of
 * its attachments with what each is and whether it was read (each read one follows on its own).
 */
export function messageText(message: ReadMessage, listed: Listed[]): string {
  const lines: string[] = [];
  for (const [key, label] of HEADER_NAMES) {
    const value = message.headers[key];
    if (value) lines.push(`${label}: ${value.replace(/\s+/g, ' ')}`);
  }
  const body = message.body.trim();
  const blocks = [lines.join('\n')];
  if (body) blocks.push(body);
  else blocks.push(message.bodyFrom === 'none' ? '(no body text)' : '');
  if (listed.length > 0)
    blocks.push([`Attachments (${listed.length}):`, ...listed.map(listingLine)].join('\n'));
  return blocks.filter((b) => b !== '').join('\n\n');
}
