import type { ContentPart, GroundingSource, PreparedSource, SourceType } from '@xt/contract';
import { ExtractionFailure } from '@xt/contract';
import {
  composeEmail,
  encryptedPdf,
  textImagePng,
  textPdf,
  type EmailSpec,
} from '@xt/testkit/fixtures';
import { describe, expect, it } from 'vitest';
import { prepareImage } from '../image/index.ts';
import { preparePdf } from '../pdf/index.ts';
import type { PrepareOptions } from '../preparer.ts';
import { prepareTextBytes } from '../text.ts';
import { htmlToMarkdown } from '../webpage/markdown/html.ts';
import { emailFormatOf } from './format.ts';
import { prepareEmail, type EmailDeps } from './prepare-email.ts';
import { readMessage } from './read-message.ts';

const markdown = (html: string) => htmlToMarkdown(html).markdown;
const opts: PrepareOptions = {
  model: 'gpt-4.1',
  signal: new AbortController().signal,
  citations: true,
};

/** The kinds' own preparations, run here rather than in prep processes. */
const handlers: Partial<
  Record<SourceType, (bytes: Buffer, mime: string) => Promise<PreparedSource>>
> = {
  pdf: (bytes) =>
    preparePdf(bytes, {
      model: 'gpt-4.1',
      mode: 'auto',
      maxPages: 50,
      maxImagePages: 10,
      maxImagePixels: 50_000_000,
      grounding: true,
    }),
  image: (bytes) => prepareImage(bytes, { model: 'gpt-4.1', maxPixels: 50_000_000 }),
  text: (bytes, mime) => Promise.resolve(prepareTextBytes(bytes, mime, markdown, true)),
};

function deps(overrides: Partial<EmailDeps> = {}): EmailDeps {
  return {
    read: (bytes, format) => readMessage(bytes, format, { maxParts: 200, html: markdown }),
    reads: (kind) => handlers[kind] !== undefined,
    prepareBytesOfKind: (kind, bytes, format) => {
      const mime = { pdf: 'application/pdf', html: 'text/html' }[format as string] ?? 'text/plain';
      return handlers[kind]!(bytes, mime);
    },
    maxBytes: () => undefined,
    maxImages: 20,
    ...overrides,
  };
}

const prepare = async (spec: EmailSpec, d = deps()) => {
  const bytes = await composeEmail(spec);
  return prepareEmail(bytes, emailFormatOf(bytes), opts, d);
};

const texts = (parts: ContentPart[]) =>
  parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [`[image ${p.width}x${p.height}]`]));

const invoiceSpec = async (): Promise<EmailSpec> => ({
  from: 'Accounts <ap@acme.test>',
  to: 'Payables <payables@globex.test>',
  subject: 'Invoice 2026-117',
  date: 'Tue, 03 Mar 2026 09:15:00 +0100',
  text: { content: 'Please find invoice 2026-117 attached.\n\nKind regards,\nAcme' },
  attachments: [
    {
      filename: 'invoice.pdf',
      type: 'application/pdf',
      content: await textPdf(['Invoice 2026-117', 'Total due 1,234.50 EUR']),
    },
    {
      filename: 'archive.zip',
      type: 'application/zip',
      content: Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'latin1'),
    },
  ],
});

describe('prepareEmail', () => {
  it('sends the headers, the body and the attachment list, then each attachment read by its kind', async () => {
    const prepared = await prepare(await invoiceSpec());
    const [message, ...rest] = texts(prepared.parts);
    expect(message).toBe(
      [
        'From: Accounts <ap@acme.test>',
        'To: Payables <payables@globex.test>',
        'Date: Tue, 03 Mar 2026 09:15:00 +0100',
        'Subject: Invoice 2026-117',
        '',
        'Please find invoice 2026-117 attached.\n\nKind regards,\nAcme',
        '',
        'Attachments (2):',
        '- invoice.pdf (PDF, 1 KB)',
        '- archive.zip (a ZIP archive, 22 bytes): not read (not a kind of file the service reads)',
      ].join('\n'),
    );
    expect(rest).toEqual([
      '=== Attachment: invoice.pdf (PDF) ===',
      '--- Page 1 ---\nInvoice 2026-117',
      '--- Page 2 ---\nTotal due 1,234.50 EUR',
    ]);
    // Units run on over the whole message; an attachment's heading goes with its first page.
    expect(prepared.parts.map((p) => p.unit)).toEqual([1, 2, 2, 3]);
    // A kind the service never reads is listed, and is no warning.
    expect(prepared.truncated).toBeUndefined();
  });

  it("keeps each part's own grounding source under its name", async () => {
    const prepared = await prepare(await invoiceSpec());
    const grounding = prepared.grounding as Extract<GroundingSource, { kind: 'parts' }>;
    expect(grounding.kind).toBe('parts');
    expect(grounding.parts.map((p) => [p.part, p.source.kind])).toEqual([
      ['body', 'plain'],
      ['invoice.pdf', 'pages'],
    ]);
    const body = grounding.parts[0]!.source as { text: string };
    expect(body.text).toBe((prepared.parts[0] as { text: string }).text);
    const withoutCitations = await prepareEmail(
      await composeEmail(await invoiceSpec()),
      'eml',
      { ...opts, citations: false },
      deps(),
    );
    expect(withoutCitations.grounding).toBeUndefined();
  });

  it('reads text attachments and inline images, and nested messages as parts of their own', async () => {
    const logo = await textImagePng(['ACME'], { width: 200, height: 80, fontSize: 40 });
    const prepared = await prepare({
      from: 'a@example.com',
      subject: 'Fwd: order',
      html: {
        content: '<p>See below. <img src="cid:logo"></p>',
        inline: [{ cid: 'logo', type: 'image/png', filename: 'logo.png', content: logo }],
      },
      attachments: [
        {
          filename: 'order.eml',
          message: {
            from: 'buyer@globex.test',
            subject: 'Order 5521',
            text: { content: 'Please deliver 12 cable ties.' },
            attachments: [
              { filename: 'po.txt', type: 'text/plain', content: Buffer.from('PO-4471\n') },
            ],
          },
        },
      ],
    });
    expect(texts(prepared.parts)).toEqual([
      expect.stringMatching(
        /\n\nAttachments \(2\):\n- logo\.png \(inline image, PNG, \d+ KB\)\n- order\.eml \(email message, \d+ bytes\)$/,
      ),
      '=== Attachment: logo.png (inline image, PNG) ===',
      expect.stringMatching(/^\[image \d+x\d+\]$/),
      expect.stringMatching(
        /^=== Attached message: order\.eml ===\nFrom: buyer@globex\.test\nSubject: Order 5521\n\nPlease deliver 12 cable ties\.\n\nAttachments \(1\):\n- order\.eml\/po\.txt \(TXT, 8 bytes\)$/,
      ),
      '=== Attachment: order.eml/po.txt (TXT) ===',
      'PO-4471\n',
    ]);
    const grounding = prepared.grounding as Extract<GroundingSource, { kind: 'parts' }>;
    expect(grounding.parts.map((p) => [p.part, p.source.kind])).toEqual([
      ['body', 'plain'],
      ['order.eml', 'plain'],
      ['order.eml/po.txt', 'text'],
    ]);
  });

  it('lists a password-protected or unreadable attachment, warns, and reads the rest', async () => {
    const prepared = await prepare({
      from: 'hr@acme.test',
      subject: 'Payroll',
      text: { content: 'The payroll summary is 48,200.00 EUR.' },
      attachments: [
        { filename: 'payroll.pdf', type: 'application/pdf', content: encryptedPdf() },
        {
          filename: 'broken.pdf',
          type: 'application/pdf',
          content: Buffer.from('%PDF-1.7\n%%EOF'),
        },
      ],
    });
    const [message] = texts(prepared.parts);
    expect(message).toMatch(/- payroll\.pdf \(PDF, \d+ bytes\): not read \(password-protected\)/);
    expect(message).toMatch(
      /- broken\.pdf \(PDF, 14 bytes\): not read \(the file is not a readable PDF/,
    );
    expect(prepared.parts).toHaveLength(1);
    expect(prepared.truncated?.message).toMatch(
      /^Parts of the message were not read: payroll\.pdf \(password-protected\); broken\.pdf \(.+\)\.$/,
    );
  });

  it('lists attachments of kinds this worker does not read, over a bound, or too large', async () => {
    const prepared = await prepare(
      {
        from: 'a@example.com',
        subject: 'files',
        text: { content: 'three files' },
        attachments: [
          { filename: 'a.pdf', type: 'application/pdf', content: await textPdf(['A']) },
          { filename: 'b.png', type: 'image/png', content: await textImagePng(['B']) },
          { filename: 'c.png', type: 'image/png', content: await textImagePng(['C']) },
        ],
      },
      deps({
        reads: (kind) => kind === 'image',
        maxImages: 1,
      }),
    );
    const [message] = texts(prepared.parts);
    expect(message).toMatch(
      /- a\.pdf \(PDF, \d+ bytes\): not read \(PDFs are not read on this worker\)/,
    );
    expect(message).toContain('- b.png (PNG, ');
    expect(message).toMatch(/- c\.png \(PNG, .*\): not read \(more than 1 image in the message/);
    const capped = await prepare(
      {
        from: 'a@example.com',
        subject: 'big',
        attachments: [{ filename: 'a.pdf', content: await textPdf(['A']) }],
      },
      deps({ maxBytes: (kind) => (kind === 'pdf' ? 100 : undefined) }),
    );
    expect(texts(capped.parts)[0]).toMatch(
      /a\.pdf \(PDF, \d+ bytes\): not read \(larger than the 100-byte limit for PDFs\)/,
    );
  });

  it('fails the message when an attachment fails in a way worth retrying', async () => {
    const failing = deps({
      prepareBytesOfKind: () =>
        Promise.reject(new ExtractionFailure('INTERNAL', 'thread died', { retryable: true })),
    });
    await expect(prepare(await invoiceSpec(), failing)).rejects.toMatchObject({
      code: 'INTERNAL',
    });
  });
});
