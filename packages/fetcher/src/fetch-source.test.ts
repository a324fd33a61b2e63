import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowlist, type Allowlist } from './allowlist.ts';
import { fetchSource } from './fetch-source.ts';
import { failureOf, startServer, type RunningServer } from '@xt/testkit';
import { SAMPLES, bytes, craftedMsg } from '@xt/testkit/fixtures';

let server: RunningServer;
let allowlist: Allowlist;

/** path → [served Content-Type, body]; several headers lie on purpose. */
const FILES: Record<string, [string, Buffer]> = {
  '/doc.pdf': ['application/pdf', SAMPLES.pdf],
  '/pdf-as-text': ['text/plain', SAMPLES.pdf],
  '/png-as-pdf': ['application/pdf', SAMPLES.png],
  '/photo.png': ['image/png', SAMPLES.png],
  '/png-as-jpeg': ['image/jpeg', SAMPLES.png],
  '/gif-as-octets': ['application/octet-stream', SAMPLES.gif],
  '/html-as-png': ['image/png', bytes('<!DOCTYPE html><html><body>login</body></html>')],
  '/text-as-pdf': ['application/pdf', bytes('not a pdf at all')],
  '/empty': ['application/pdf', Buffer.alloc(0)],
  '/lying.msg': ['application/vnd.ms-outlook', craftedMsg({ bodySize: 256 * 2 ** 20 })],
  '/prices.csv': ['text/plain', bytes('Price list 2024\nSKU,Price\nA-1,2.00,new\nTotal,2.00\n')],
  '/prices': ['text/plain', bytes('Price list 2024\nSKU,Price\nA-1,2.00,new\nTotal,2.00\n')],
  '/letter': ['text/plain', bytes('Dear customer\nthank you for your order\nregards\n')],
};

beforeAll(async () => {
  server = await startServer((req, res) => {
    const file = FILES[req.url ?? ''];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file[0], 'content-length': file[1].length }).end(file[1]);
  });
  allowlist = parseAllowlist(`127.0.0.1:${server.port}`);
});

afterAll(async () => {
  await server.close();
});

const opts = () => ({ allowlist, maxBytes: 100_000, timeoutMs: 5_000 });

describe('fetchSource', () => {
  it('returns a PDF with the type its bytes show', async () => {
    const got = await fetchSource(`${server.origin}/doc.pdf`, 'pdf', opts());
    expect(got.contentType).toBe('application/pdf');
    expect(got.bytes.equals(SAMPLES.pdf)).toBe(true);
    expect(got.finalUrl).toBe(`${server.origin}/doc.pdf`);
  });

  it('takes a ragged table for a spreadsheet, named .csv or asked for as one', async () => {
    for (const path of ['/prices.csv', '/prices'])
      expect(await fetchSource(`${server.origin}${path}`, 'spreadsheet', opts())).toMatchObject({
        format: 'csv',
        contentType: 'text/csv',
      });
    // auto reads an unnamed ragged table as the text it looks like.
    expect(await fetchSource(`${server.origin}/prices`, 'auto', opts())).toMatchObject({
      format: 'txt',
    });
    const letter = await failureOf(fetchSource(`${server.origin}/letter`, 'spreadsheet', opts()));
    expect(letter.code).toBe('SOURCE_UNSUPPORTED');
  });

  it('accepts a real PDF served under the wrong header', async () => {
    const got = await fetchSource(`${server.origin}/pdf-as-text`, 'pdf', opts());
    expect(got).toMatchObject({ contentType: 'application/pdf', headerContentType: 'text/plain' });
  });

  it('refuses an Outlook message whose structure lies as unreadable, not as another kind', async () => {
    const failure = await failureOf(fetchSource(`${server.origin}/lying.msg`, 'email', opts()));
    expect(failure).toMatchObject({ code: 'SOURCE_UNREADABLE', retryable: false });
    expect(failure.message).toMatch(
      /but the content is a damaged OLE compound file \(entry 2 declares 268435456 bytes, more than the whole file\)/,
    );
  });

  it.each(['/png-as-pdf', '/text-as-pdf', '/photo.png'])(
    'refuses %s as a PDF with SOURCE_UNSUPPORTED',
    async (path) => {
      const failure = await failureOf(fetchSource(`${server.origin}${path}`, 'pdf', opts()));
      expect(failure.code).toBe('SOURCE_UNSUPPORTED');
      expect(failure.retryable).toBe(false);
    },
  );

  it.each([
    ['/photo.png', 'image/png'],
    ['/png-as-jpeg', 'image/png'],
    ['/png-as-pdf', 'image/png'],
    ['/gif-as-octets', 'image/gif'],
  ])('lets the bytes decide for image %s', async (path, type) => {
    const got = await fetchSource(`${server.origin}${path}`, 'image', opts());
    expect(got.contentType).toBe(type);
  });

  it('refuses an HTML page served as an image', async () => {
    const failure = await failureOf(fetchSource(`${server.origin}/html-as-png`, 'image', opts()));
    expect(failure.code).toBe('SOURCE_UNSUPPORTED');
    expect(failure.message).toMatch(/text\/html.*served as image\/png/);
  });

  it('reports an empty body as SOURCE_UNREADABLE', async () => {
    const failure = await failureOf(fetchSource(`${server.origin}/empty`, 'pdf', opts()));
    expect(failure.code).toBe('SOURCE_UNREADABLE');
  });

  it('applies the per-kind cap the caller passes', async () => {
    const failure = await failureOf(
      fetchSource(`${server.origin}/photo.png`, 'image', {
        ...opts(),
        maxBytes: SAMPLES.png.length - 1,
      }),
    );
    expect(failure.code).toBe('SOURCE_TOO_LARGE');
  });
});
