import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  composeEmail,
  encryptedPdf,
  realCorpusDir,
  textPdf,
  tinyPng,
  type EmailSpec,
} from '@xt/testkit/fixtures';
import { failureOf } from '@xt/testkit';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../webpage/markdown/html.ts';
import { emailFormatOf } from './format.ts';
import { MAX_EMAIL_DEPTH, readMessage } from './read-message.ts';

const limits = { maxParts: 200, html: (h: string) => htmlToMarkdown(h).markdown };
const read = (bytes: Buffer, maxParts = 200) =>
  readMessage(bytes, emailFormatOf(bytes), { ...limits, maxParts });

const base: EmailSpec = {
  from: 'Jürgen Schmürgen <juergen@example.de>',
  to: 'Иван Петров <ivan@example.ru>',
  cc: 'Accounts <ap@example.com>',
  subject: 'Счёт № 17 — Grüße',
  date: 'Tue, 03 Mar 2026 09:15:00 +0100',
};

describe('reading a message', () => {
  it('decodes RFC 2047 headers and keeps the Date as written', async () => {
    const message = await read(await composeEmail({ ...base, text: { content: 'Hallo' } }));
    expect(message.headers).toEqual({
      from: 'Jürgen Schmürgen <juergen@example.de>',
      to: 'Иван Петров <ivan@example.ru>',
      cc: 'Accounts <ap@example.com>',
      date: 'Tue, 03 Mar 2026 09:15:00 +0100',
      subject: 'Счёт № 17 — Grüße',
    });
    expect(message.body.trim()).toBe('Hallo');
    expect(message.bodyFrom).toBe('plain');
  });

  it.each([
    ['utf-8', 'quoted-printable', 'Grüße, die Rechnung über 1.234,50 € ist fällig.'],
    ['utf-8', 'base64', 'Grüße, die Rechnung über 1.234,50 € ist fällig.'],
    ['iso-8859-1', 'quoted-printable', 'Grüße, die Rechnung über 1.234,50 EUR ist fällig.'],
    ['iso-8859-1', '8bit', 'Grüße, die Rechnung über 1.234,50 EUR ist fällig.'],
    ['windows-1251', 'quoted-printable', 'Счёт на 1 234,50 руб. к оплате.'],
    ['windows-1251', '8bit', 'Счёт на 1 234,50 руб. к оплате.'],
    ['windows-1251', 'base64', 'Счёт на 1 234,50 руб. к оплате.'],
  ] as const)('reads a %s body sent %s', async (charset, encoding, content) => {
    const bytes = await composeEmail({ ...base, text: { content, charset, encoding } });
    const declared = bytes.toString('latin1');
    expect(declared).toContain(`charset="${charset}"`);
    expect(declared).toContain(`Content-Transfer-Encoding: ${encoding}`);
    expect((await read(bytes)).body.trim()).toBe(content);
  });

  it('takes the plain part when there is one, else the HTML read as Markdown', async () => {
    const both = await read(
      await composeEmail({
        ...base,
        text: { content: 'Total due: 1,234.50 EUR' },
        html: { content: '<p>Total <b>due</b>: 1,234.50 EUR</p>' },
      }),
    );
    expect(both).toMatchObject({ bodyFrom: 'plain' });
    expect(both.body.trim()).toBe('Total due: 1,234.50 EUR');
    const html = await read(
      await composeEmail({
        ...base,
        html: {
          content:
            '<html><head><style>p{color:red}</style><script>document.write("ran")</script></head><body><h1>Invoice 2026-117</h1><table><tr><td>Total due</td><td>1,234.50 EUR</td></tr></table></body></html>',
          charset: 'iso-8859-1',
          encoding: 'quoted-printable',
        },
      }),
    );
    expect(html.bodyFrom).toBe('html');
    expect(html.body).toContain('Invoice 2026-117');
    expect(html.body).toContain('| Total due | 1,234.50 EUR |');
    expect(html.body).not.toContain('ran');
    expect(html.body).not.toContain('color:red');
  });

  it('recognises each attachment by its content, whatever the message declared', async () => {
    const pdf = await textPdf(['Invoice 2026-117']);
    const message = await read(
      await composeEmail({
        ...base,
        text: { content: 'Attached.' },
        html: {
          content: '<p>Logo: <img src="cid:logo@x"></p>',
          inline: [{ cid: 'logo@x', type: 'image/png', filename: 'logo.png', content: tinyPng() }],
        },
        attachments: [
          { filename: 'scan.bin', content: pdf },
          { filename: 'notes.txt', type: 'text/plain', content: Buffer.from('PO-4471\n') },
          { content: Buffer.from('PK\x03\x04not really a zip') },
          { filename: 'scan.bin', type: 'application/pdf', content: pdf },
        ],
      }),
    );
    expect(
      message.attachments.map(({ name, format, inline, size }) => ({ name, format, inline, size })),
    ).toEqual([
      { name: 'logo.png', format: 'png', inline: true, size: tinyPng().length },
      { name: 'scan.bin', format: 'pdf', inline: false, size: pdf.length },
      { name: 'notes.txt', format: 'txt', inline: false, size: 8 },
      { name: 'attachment-4', format: null, inline: false, size: 20 },
      { name: 'scan (2).bin', format: 'pdf', inline: false, size: pdf.length },
    ]);
  });

  it('decodes a text attachment in another charset to UTF-8', async () => {
    const latin = Buffer.from('Lieferung: Grüße aus Köln\n', 'latin1');
    const bytes = await composeEmail({
      ...base,
      text: { content: 'see notes' },
      attachments: [{ filename: 'notes.txt', type: 'text/plain', content: latin }],
    });
    // Python's composer sends a text/plain attachment without a charset: say it, as mailers do.
    const withCharset = Buffer.from(
      bytes
        .toString('latin1')
        .replace(
          'Content-Type: text/plain\r\n',
          'Content-Type: text/plain; charset="iso-8859-1"\r\n',
        ),
      'latin1',
    );
    const [notes] = (await read(withCharset)).attachments;
    expect(Buffer.from(notes!.bytes).toString('utf8')).toBe('Lieferung: Grüße aus Köln\n');
    expect(notes!.format).toBe('txt');
  });

  it(`reads attached messages ${MAX_EMAIL_DEPTH} deep, and lists a deeper one unread`, async () => {
    let spec: EmailSpec = { ...base, subject: 'level 4', text: { content: 'the deepest body' } };
    for (let level = 3; level >= 0; level--)
      spec = {
        ...base,
        subject: `level ${level}`,
        text: { content: `body at level ${level}` },
        attachments: [{ filename: `level-${level + 1}.eml`, message: spec }],
      };
    const top = await read(await composeEmail(spec));
    let message = top;
    for (let level = 1; level <= MAX_EMAIL_DEPTH; level++) {
      const [nested] = message.attachments;
      expect(nested).toMatchObject({ name: `level-${level}.eml`, format: 'eml' });
      message = nested!.message!;
      expect(message.headers.subject).toBe(`level ${level}`);
      expect(message.body.trim()).toBe(`body at level ${level}`);
    }
    const [tooDeep] = message.attachments;
    expect(tooDeep).toMatchObject({ name: 'level-4.eml', format: 'eml' });
    expect(tooDeep!.message).toBeUndefined();
    expect(tooDeep!.notRead).toMatch(/nested more than 3 deep/);
  });

  it('refuses a message of thousands of parts as too large, before reading them', async () => {
    const many = await composeEmail({
      ...base,
      text: { content: 'many parts' },
      attachments: Array.from({ length: 2_000 }, (_, i) => ({
        filename: `part-${i}.txt`,
        type: 'text/plain',
        content: Buffer.from(`part ${i}\n`),
      })),
    });
    const failure = await failureOf(read(many, 200));
    expect(failure.code).toBe('SOURCE_TOO_LARGE');
    expect(failure.message).toMatch(/more than 200 .*MAX_EMAIL_PARTS/);
    // Nested messages count with their parts: 3 messages of 80 attachments each.
    const nested = (n: number): EmailSpec => ({
      ...base,
      text: { content: 'x' },
      attachments: Array.from({ length: n }, (_, i) => ({
        filename: `a${i}.txt`,
        type: 'text/plain',
        content: Buffer.from('a\n'),
      })),
    });
    const spread = await composeEmail({
      ...nested(80),
      attachments: [
        ...nested(80).attachments!,
        { filename: 'f1.eml', message: nested(80) },
        { filename: 'f2.eml', message: nested(80) },
      ],
    });
    expect((await failureOf(read(spread, 200))).code).toBe('SOURCE_TOO_LARGE');
  });

  it('reads what a broken message holds, and fails one that holds nothing as unreadable', async () => {
    const pdf = await textPdf(['Invoice 2026-117']);
    const whole = (
      await composeEmail({
        ...base,
        text: { content: 'The body survives.' },
        attachments: [{ filename: 'invoice.pdf', type: 'application/pdf', content: pdf }],
      })
    ).toString('latin1');
    // Cut in the middle of the attachment's base64: no closing boundary, a short last line.
    const cut = Buffer.from(whole.slice(0, whole.length - 200), 'latin1');
    const message = await read(cut);
    expect(message.body.trim()).toBe('The body survives.');
    expect(message.attachments[0]!.format).toBe('pdf');
    // A boundary the header promised and the body never uses: mailparser drops the text as a
    // preamble, so the message is refused rather than sent as its headers alone.
    const lost = Buffer.from(
      'From: a@example.com\r\nTo: b@example.com\r\nSubject: x\r\nContent-Type: multipart/mixed; boundary="nowhere"\r\n\r\nplain words\r\n',
    );
    expect((await failureOf(read(lost))).message).toMatch(/boundary "nowhere", which never occurs/);
    // An Outlook message that is a compound file of nothing Outlook wrote.
    const compound = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(compound);
    expect((await failureOf(read(compound))).code).toBe('SOURCE_UNREADABLE');
  });

  it('lists an encrypted PDF as a PDF, for its own reader to refuse', async () => {
    const message = await read(
      await composeEmail({
        ...base,
        text: { content: 'locked' },
        attachments: [
          { filename: 'payroll.pdf', type: 'application/pdf', content: encryptedPdf() },
        ],
      }),
    );
    expect(message.attachments[0]).toMatchObject({ name: 'payroll.pdf', format: 'pdf' });
  });
});

// Messages a real composer wrote, then damaged the ways mail in the wild is: each is read as far
// as it goes, as mail programs read it, or refused saying why; never a hang or a crash.
describe('a message with broken MIME boundaries', () => {
  const csv = 'item,amount\nRent,1200\nPower,85.40\n';
  const spec: EmailSpec = {
    ...base,
    text: { content: 'Total due 1,285.40 EUR' },
    attachments: [{ filename: 'items.csv', type: 'text/csv', content: Buffer.from(csv) }],
    seed: 7,
  };
  const composed = async (s: EmailSpec = spec) => (await composeEmail(s)).toString('latin1');
  const boundaries = (eml: string) => [...eml.matchAll(/boundary="([^"]+)"/g)].map((m) => m[1]!);
  const bytes = (eml: string) => Buffer.from(eml, 'latin1');
  const attachmentText = (m: { attachments: { bytes: Uint8Array }[] }) =>
    Buffer.from(m.attachments[0]!.bytes).toString('utf8');

  it('keeps every part when the final boundary never comes', async () => {
    const eml = await composed();
    const [outer] = boundaries(eml);
    expect(eml).toContain(`--${outer}--`);
    const message = await read(bytes(eml.replace(`--${outer}--`, '')));
    expect(message.body.trim()).toBe('Total due 1,285.40 EUR');
    expect(message.attachments).toHaveLength(1);
    expect(attachmentText(message)).toBe(csv);
  });

  it('keeps the body and what came of an attachment when the message is cut off inside it', async () => {
    const eml = await composeEmail({
      ...spec,
      attachments: [
        { filename: 'items.csv', type: 'text/csv', content: Buffer.from(csv.repeat(40)) },
      ],
    });
    const text = eml.toString('latin1');
    const cut = text.slice(0, text.indexOf('filename="items.csv"') + 400);
    const message = await read(bytes(cut));
    expect(message.body.trim()).toBe('Total due 1,285.40 EUR');
    const kept = attachmentText(message);
    expect(kept.length).toBeGreaterThan(0);
    expect(csv.repeat(40).startsWith(kept)).toBe(true);
  });

  it('reads on past a part whose header block is garbage', async () => {
    const eml = await composed();
    const [outer] = boundaries(eml);
    const at = eml.indexOf(`--${outer}`, eml.indexOf(`--${outer}`) + 1);
    const garbage = `--${outer}\r\n\u0001\u0002\u00ff no colon here\r\n::::\r\nContent-Type\r\n\r\nstray text\r\n`;
    const message = await read(bytes(eml.slice(0, at) + garbage + eml.slice(at)));
    expect(message.body).toContain('Total due 1,285.40 EUR');
    expect(message.attachments.map((a) => a.name)).toContain('items.csv');
    const items = message.attachments.find((a) => a.name === 'items.csv')!;
    expect(Buffer.from(items.bytes).toString('utf8')).toBe(csv);
  });

  it('refuses a message whose declared boundary never occurs, instead of sending its headers alone', async () => {
    const eml = await composed();
    const [outer] = boundaries(eml);
    const failure = await failureOf(
      read(bytes(eml.replace(`boundary="${outer}"`, 'boundary="not-in-this-message"'))),
    );
    expect(failure.code).toBe('SOURCE_UNREADABLE');
    expect(failure.message).toBe(
      'The message could not be read: its Content-Type says its parts are separated by the boundary "not-in-this-message", which never occurs in it (a damaged message).',
    );
  });

  it('lists an attached message so damaged as not read, and reads the rest', async () => {
    const eml = await composed({
      ...base,
      text: { content: 'Forwarding the invoice.' },
      attachments: [{ filename: 'invoice.eml', message: spec }],
      seed: 8,
    });
    const [, inner] = boundaries(eml);
    const message = await read(bytes(eml.replace(`boundary="${inner}"`, 'boundary="gone"')));
    expect(message.body.trim()).toBe('Forwarding the invoice.');
    expect(message.attachments[0]).toMatchObject({
      name: 'invoice.eml',
      format: 'eml',
      notRead: 'a damaged message',
    });
    expect(message.attachments[0]!.message).toBeUndefined();
  });
});

const corpus = realCorpusDir('office');

// Real messages from mail programs and Outlook, read in place when the corpus is beside the
// checkout (no program here writes Outlook's .msg files).
describe.skipIf(!corpus)('reading real messages', () => {
  const file = (name: string) => readFileSync(path.join(corpus!, name));

  it("reads Outlook messages, in Unicode and in the sender's code page", async () => {
    const cyrillic = await read(file('cyrillic_message.msg'));
    expect(cyrillic.headers.subject).toBe(
      'Автоматический ответ подсистемы обмена данными ФГУП "Почта России".',
    );
    expect(cyrillic.body).toContain('Ваше сообщение с темой "FW: RTM" было успешно получено');
    const outlook = await read(file('outlook_30_msg.msg'));
    expect(outlook.headers.subject).toBe(
      'IN-SPIRE servers going down for a bit, back up around 8am',
    );
    expect(outlook.headers.to).toContain('Bohn, Shawn J <shawn.bohn@pnl.gov>');
    expect(outlook.headers.date).toMatch(/2008/);
  });

  it('reads .eml files from other mail programs, their attachments recognised', async () => {
    const m1001 = await read(file('m1001.eml'));
    expect(m1001.headers.to).toBe('Jürgen Schmürgen <schmuergen@example.com>');
    expect(m1001.body).toContain('Die Hasen klagten einst über ihre mißliche Lage');
    const pdf = await read(file('test-incremental-updates.eml'));
    expect(pdf.attachments.map((a) => [a.name, a.format])).toEqual([
      ['testPDF_incrementalUpdates.pdf', 'pdf'],
    ]);
    const doc = await read(file('m0024.eml'));
    expect(doc.attachments.map((a) => [a.name, a.format])).toEqual([
      ['Biodiversité de semaine en semaine.doc', 'doc'],
    ]);
    const eightBit = await read(file('content_transfer_encoding_with_8bits.eml'));
    expect(eightBit.bodyFrom).toBe('html');
    expect(eightBit.body).toContain('Holiday Gift Ideas for the Computer Professional');
  });
});
