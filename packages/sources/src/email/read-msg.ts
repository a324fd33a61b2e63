import msgreader, { type FieldsData } from '@kenjiuno/msgreader';
import { ExtractionFailure } from '@xt/contract';
import { compoundFileProblem } from '@xt/formats';
import type { HtmlReader } from './read-eml.ts';
import type { MessageHeaders, ParsedAttachment, ParsedMessage } from './message.ts';

/*
 * Outlook `.msg` files are read with `@kenjiuno/msgreader`, not by hand: an MSG is an OLE
 * compound file of MAPI properties ([MS-OXMSG]) in Unicode or in the sender's ANSI code page,
 * with attachments as storages and attached messages as whole sub-storages, and msgreader is a
 * maintained reader of all of it (it also writes an attached message out as a `.msg` of its
 * own, which is then read like any other).
 */

// A CommonJS module whose class is its `default` export: Node hands ESM the exports object,
// while vitest's loader hands over the class itself.
const loaded = msgreader as unknown as { default?: typeof msgreader.default };
const MsgReader = loaded.default ?? (msgreader as unknown as typeof msgreader.default);
type MsgReader = InstanceType<typeof MsgReader>;

const unreadable = (why: string) =>
  new ExtractionFailure('SOURCE_UNREADABLE', `The Outlook message could not be read: ${why}`);

function open(bytes: Uint8Array, ansiEncoding?: string): { reader: MsgReader; data: FieldsData } {
  const reader = new MsgReader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (ansiEncoding) reader.parserConfig = { ansiEncoding };
  let data: FieldsData;
  try {
    data = reader.getFileData();
  } catch (err) {
    throw unreadable(err instanceof Error ? err.message : String(err));
  }
  if (data.error) throw unreadable(data.error);
  if (data.dataType !== 'msg') throw unreadable('it holds no message.');
  return { reader, data };
}

/** "Name <address>" from what Outlook stored; an Exchange-internal address is left out. */
function person(name: string | undefined, ...emails: (string | undefined)[]): string | null {
  const email = emails.find((e) => e && e.includes('@'));
  const shown = name?.trim();
  if (shown && email && shown !== email) return `${shown} <${email}>`;
  return shown || email || null;
}

function recipients(data: FieldsData, type: 'to' | 'cc'): string | null {
  const list = (data.recipients ?? [])
    .filter((r) => (r.recipType ?? 'to') === type)
    .map((r) => person(r.name, r.smtpAddress, r.email))
    .filter((s): s is string => s !== null);
  return list.length > 0 ? list.join(', ') : null;
}

function headersOf(data: FieldsData): MessageHeaders {
  return {
    from: person(data.senderName, data.senderSmtpAddress, data.senderEmail),
    to: recipients(data, 'to'),
    cc: recipients(data, 'cc'),
    date: data.clientSubmitTime ?? data.messageDeliveryTime ?? null,
    subject: data.subject?.trim() || null,
  };
}

/** Outlook keeps an HTML body as bytes in the message's internet code page. */
function htmlBody(data: FieldsData): string | null {
  if (data.bodyHtml) return data.bodyHtml;
  if (!data.html) return null;
  try {
    return new TextDecoder(codePageLabel(data.internetCodepage) ?? 'utf-8').decode(data.html);
  } catch {
    return new TextDecoder('utf-8').decode(data.html);
  }
}

/** A Windows code page as an encoding label TextDecoder and iconv-lite both know. */
function codePageLabel(codePage: number | undefined): string | undefined {
  if (!codePage) return undefined;
  if (codePage === 65001) return 'utf-8';
  if (codePage === 20127) return 'us-ascii';
  if (codePage === 28591) return 'iso-8859-1';
  if (codePage >= 28592 && codePage <= 28605) return `iso-8859-${codePage - 28590}`;
  return `windows-${codePage}`;
}

/**
 * An `.msg` file's headers, body and attachments. Strings stored in the sender's ANSI code page
 * (older Outlook, or a message not saved as Unicode) are decoded with that code page. At most
 * `maxParts` attachments are accepted; an attached message comes back as a `.msg` of its own.
 */
export function readMsg(
  bytes: Uint8Array,
  opts: { maxParts: number; html: HtmlReader },
): ParsedMessage {
  // msgreader allocates every size the file declares and follows chains until they end: the
  // structure is checked against the file first, so a few kilobytes cannot claim gigabytes.
  const problem = compoundFileProblem(bytes);
  if (problem) throw unreadable(`${problem}.`);
  let { reader, data } = open(bytes);
  // The code page is itself a property: known only once the file has been read once.
  const codePage = codePageLabel(data.messageCodepage ?? data.internetCodepage);
  if (codePage) {
    try {
      ({ reader, data } = open(bytes, codePage));
    } catch {
      // A code page iconv-lite does not know: the strings stay as first decoded.
    }
  }
  const listed = data.attachments ?? [];
  if (listed.length > opts.maxParts)
    throw new ExtractionFailure(
      'SOURCE_TOO_LARGE',
      `The message has ${listed.length} attachments; at most ${opts.maxParts} parts are read (MAX_EMAIL_PARTS).`,
    );
  const attachments: ParsedAttachment[] = listed.map((a) => {
    const { content } = reader.getAttachment(a);
    return {
      filename: a.fileName?.trim() || a.fileNameShort?.trim() || null,
      bytes: content,
      declaredType: a.attachMimeTag ?? null,
      charset: null,
      inline: a.attachmentHidden === true || (a.pidContentId !== undefined && !a.innerMsgContent),
    };
  });
  const plain = data.body?.trim() ? data.body : '';
  const html = plain ? null : htmlBody(data);
  const fromHtml = html ? opts.html(html) : '';
  return {
    headers: headersOf(data),
    body: plain || fromHtml,
    bodyFrom: plain ? 'plain' : fromHtml ? 'html' : 'none',
    attachments,
  };
}
