import type { SourceType } from '@xt/contract';
import { composeEmail, pngImage, scannedPdf, textImagePng } from '@xt/testkit/fixtures';
import { describe, expect, it } from 'vitest';
import { prepareImage } from '../image/index.ts';
import { preparePdf } from '../pdf/index.ts';
import type { PrepareOptions } from '../preparer.ts';
import { emailFormatOf } from './format.ts';
import { prepareEmail, type EmailDeps } from './prepare-email.ts';
import { readMessage } from './read-message.ts';

const ocr = { timeoutMs: 30_000 };

/** The kinds' own readers, given the options the message is read with, as the handlers are. */
const deps: EmailDeps = {
  read: (bytes, format) => readMessage(bytes, format, { maxParts: 50, html: (h) => h }),
  reads: (kind: SourceType) => kind === 'image' || kind === 'pdf',
  prepareBytesOfKind: (kind, bytes, _format, opts) =>
    kind === 'image'
      ? prepareImage(bytes, { model: opts.model, maxPixels: 50_000_000, ocr, images: opts.images })
      : preparePdf(bytes, {
          model: opts.model,
          mode: 'auto',
          maxPages: 10,
          maxImagePages: 10,
          maxImagePixels: 50_000_000,
          ocr,
          images: opts.images,
        }),
  maxBytes: () => undefined,
  maxImages: 10,
};

describe('prepareEmail for a model that takes no images', () => {
  it("sends attached images and scans as OCR text, and counts them for the message's warning", async () => {
    const bytes = await composeEmail({
      from: 'Accounts <ap@acme.test>',
      to: 'Payables <payables@globex.test>',
      subject: 'Receipt',
      text: { content: 'Receipt and scan attached.' },
      attachments: [
        {
          filename: 'receipt.png',
          type: 'image/png',
          content: await textImagePng(['Receipt R-19', 'Paid 40.00 EUR']),
        },
        { filename: 'scan.pdf', type: 'application/pdf', content: await scannedPdf(['Order 5']) },
      ],
    });
    const opts: PrepareOptions = {
      model: 'gpt-4.1',
      signal: new AbortController().signal,
      images: false,
    };
    const prepared = await prepareEmail(bytes, emailFormatOf(bytes), opts, deps);
    expect(prepared.parts.every((p) => p.kind === 'text')).toBe(true);
    const text = prepared.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n');
    expect(text).toContain('Receipt R-19\nPaid 40.00 EUR');
    expect(text).toContain('--- Page 1 ---\nOrder 5');
    expect(prepared.imagesAsText).toEqual({ pages: 1, images: 1, leftOut: 0 });
    expect(prepared.truncated).toBeUndefined();
  });

  it('lists an image with no text to read as not read, and reads the rest', async () => {
    const bytes = await composeEmail({
      from: 'Accounts <ap@acme.test>',
      to: 'Payables <payables@globex.test>',
      subject: 'Photo',
      text: { content: 'A photo of the crate.' },
      attachments: [
        {
          filename: 'crate.png',
          type: 'image/png',
          content: await pngImage({ width: 300, height: 200 }),
        },
      ],
    });
    const opts: PrepareOptions = {
      model: 'gpt-4.1',
      signal: new AbortController().signal,
      images: false,
    };
    const prepared = await prepareEmail(bytes, emailFormatOf(bytes), opts, deps);
    expect(prepared.parts.every((p) => p.kind === 'text')).toBe(true);
    expect(prepared.truncated?.message).toMatch(
      /crate\.png \(the model takes no images, and OCR found no text/,
    );
    expect(prepared.imagesAsText).toBeUndefined();
  });
});
