import type { FormatName } from '@xt/contract';

/** The headers a reader sees, as the message writes them (decoded); null where absent. */
export interface MessageHeaders {
  from: string | null;
  to: string | null;
  cc: string | null;
  date: string | null;
  subject: string | null;
}

/** Where a message's body text came from. */
export type BodySource = 'plain' | 'html' | 'none';

/**
 * One attachment (or inline image) of a message, as its bytes after the transfer encoding is
 * undone. Its kind is decided by its content (`format`), never by the type the message declared.
 */
export interface ReadAttachment {
  /** Its file name, unique among the message's parts; made up when the message gives none. */
  name: string;
  bytes: Uint8Array;
  size: number;
  /** What its content is, or null with `found` saying what it is instead. */
  format: FormatName | null;
  found: string | null;
  /** Shown in the body (a `cid:` image of an HTML body, Outlook's hidden attachments). */
  inline: boolean;
  /** A nested message, read in turn (to the depth bound). */
  message?: ReadMessage;
  /** Why a nested message was not read (past the depth bound, or unreadable). */
  notRead?: string;
}

/** A message as a reader sees it: headers, body, attachments (nested messages read in turn). */
export interface ReadMessage {
  headers: MessageHeaders;
  /** The plain part, or the HTML part as Markdown (read statically: nothing in it runs). */
  body: string;
  bodyFrom: BodySource;
  attachments: ReadAttachment[];
}

/** What a message parser gives before its attachments are recognised and nested ones read. */
export interface ParsedMessage {
  headers: MessageHeaders;
  body: string;
  bodyFrom: BodySource;
  attachments: ParsedAttachment[];
}

export interface ParsedAttachment {
  /** As the message names it, if it does. */
  filename: string | null;
  bytes: Uint8Array;
  /** The type and charset the message declared: only to decode a text part's characters. */
  declaredType: string | null;
  charset: string | null;
  inline: boolean;
}
