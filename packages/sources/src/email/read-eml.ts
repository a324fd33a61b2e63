import {
  simpleParser,
  type AddressObject,
  type Attachment,
  type ParsedMail,
  type StructuredHeader,
} from 'mailparser';
import { ExtractionFailure } from '@xt/contract';
import type { MessageHeaders, ParsedAttachment, ParsedMessage } from './message.ts';

/*
 * RFC 5322 messages are read with Nodemailer's `mailparser`, not by hand: MIME is a deep format
 * (nested multiparts, RFC 2047 encoded words in headers, RFC 2231 parameters, quoted-printable
 * and base64, every charset a mail program ever wrote, broken boundaries that mail programs
 * tolerate), and mailparser is maintained against real mail. It bounds the parts it splits a
 * message into (`maxChildNodes`) and the size of a header block, so a hostile message costs
 * linear time.
 */

/** A message's body and HTML read statically (nothing runs, nothing is fetched) as Markdown. */
export type HtmlReader = (html: string) => string;

function addresses(value: AddressObject | AddressObject[] | undefined): string | null {
  if (!value) return null;
  const list = (Array.isArray(value) ? value : [value]).flatMap((a) => a.value);
  const flat = list.flatMap((a) => (a.group ? a.group : [a]));
  const shown = flat
    .map((a) => (a.name && a.address ? `${a.name} <${a.address}>` : (a.address ?? a.name)))
    .filter((s) => s !== '');
  return shown.length > 0 ? shown.join(', ') : null;
}

/** The Date header as written (a reader sees the sender's own time and zone), else as parsed. */
function dateOf(mail: ParsedMail): string | null {
  const line = mail.headerLines.find((h) => h.key === 'date')?.line;
  const written = line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\s+/g, ' ')
    .trim();
  if (written) return written;
  return mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toUTCString() : null;
}

function headersOf(mail: ParsedMail): MessageHeaders {
  return {
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    date: dateOf(mail),
    subject: mail.subject?.trim() || null,
  };
}

function attachmentOf(a: Attachment): ParsedAttachment {
  const declared = a.headers.get('content-type') as StructuredHeader | undefined;
  const charset = declared?.params?.charset ?? null;
  return {
    filename: a.filename?.trim() || null,
    bytes: new Uint8Array(a.content.buffer, a.content.byteOffset, a.content.byteLength),
    declaredType: a.contentType || null,
    charset,
    inline: a.related === true || a.contentDisposition === 'inline',
  };
}

function failure(err: unknown, maxParts: number): ExtractionFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (/child nodes/i.test(message))
    return new ExtractionFailure(
      'SOURCE_TOO_LARGE',
      `The message has more than ${maxParts} MIME parts; at most ${maxParts} are read (MAX_EMAIL_PARTS).`,
    );
  return new ExtractionFailure('SOURCE_UNREADABLE', `The message could not be read: ${message}`);
}

/**
 * The boundary a multipart message declares, when none of its parts starts with it. mailparser
 * drops what comes before a message's first boundary (the preamble mail programs hide), so such
 * a message would reach the model as its headers alone, its text silently gone. A boundary that
 * opens parts but never closes, a part whose headers are garbage and a message cut off before
 * its final boundary are read as far as they go, as mail programs read them.
 */
function boundaryNeverFound(mail: ParsedMail, bytes: Buffer): string | null {
  const type = mail.headers.get('content-type') as StructuredHeader | undefined;
  const boundary = type?.value.toLowerCase().startsWith('multipart/')
    ? type.params?.boundary
    : null;
  if (!boundary) return null;
  const line = `--${boundary}`;
  return bytes.includes(`\n${line}`, 0, 'latin1') || bytes.includes(`\r${line}`, 0, 'latin1')
    ? null
    : boundary;
}

/**
 * An `.eml` file's headers, body and attachments. Every transfer encoding and charset is undone
 * by mailparser; an attached message (`message/rfc822`) is kept as an attachment, to be read as
 * a part of its own. `maxParts` bounds the MIME parts of the whole file, nested ones included.
 */
export async function readEml(
  bytes: Uint8Array,
  opts: { maxParts: number; html: HtmlReader },
): Promise<ParsedMessage> {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let mail: ParsedMail;
  try {
    mail = await simpleParser(file, {
      maxChildNodes: opts.maxParts,
      // Attached messages stay whole: each is read, and cited, as a part of its own.
      ignoreEmbedded: true,
      // The body's HTML is read by the service's own reader (as a webpage's text would be);
      // `cid:` images stay links rather than being inlined as data into the HTML.
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      keepCidLinks: true,
      checksumAlgo: false,
    });
  } catch (err) {
    throw failure(err, opts.maxParts);
  }
  const lost = boundaryNeverFound(mail, file);
  if (lost !== null)
    throw new ExtractionFailure(
      'SOURCE_UNREADABLE',
      `The message could not be read: its Content-Type says its parts are separated by the boundary "${lost}", which never occurs in it (a damaged message).`,
    );
  const plain = mail.text?.trim() ? mail.text : '';
  const html = !plain && typeof mail.html === 'string' ? opts.html(mail.html) : '';
  return {
    headers: headersOf(mail),
    body: plain || html,
    bodyFrom: plain ? 'plain' : html ? 'html' : 'none',
    attachments: mail.attachments.map(attachmentOf),
  };
}
