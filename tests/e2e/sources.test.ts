/**
 * URL sources through the whole service: the API validates, a real worker process fetches from
 * fixture servers on 127.0.0.1 (allow-listed by host:port), prepares PDFs, images and webpages,
 * and the model stand-in shows what arrived. A canary server that is not allow-listed must see
 * no connection at all, whatever the sources try.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  encryptedPdf,
  jpegImage,
  lyingFile,
  scannedPdf,
  startFixtureServer,
  textPdf,
  type FixtureServer,
} from '@xt/testkit/fixtures';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  startTestWorker,
  type TestApi,
} from '@xt/api/testing';

checkResponsesAgainstOpenApi();

const structure = {
  type: 'object',
  properties: {
    title: { type: 'string', required: true },
    amounts: { type: 'array', items: { type: 'number' } },
  },
};

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let fixtures: FixtureServer;
let canary: Server;
let canaryUrl: string;
let canaryConnections = 0;
let schemaId: string;

beforeAll(async () => {
  canary = createServer((_req, res) => res.end('canary'));
  canary.on('connection', () => canaryConnections++);
  await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;

  fixtures = await startFixtureServer({
    '/report.pdf': {
      body: await textPdf(['Quarterly report alpha 1234', 'Second page beta 5678']),
      contentType: 'application/pdf',
    },
    '/scan.pdf': { body: await scannedPdf(['SCANNED INVOICE 42']), contentType: 'application/pdf' },
    '/locked.pdf': { body: encryptedPdf(), contentType: 'application/pdf' },
    '/photo.jpg': {
      body: await jpegImage({ width: 3000, height: 2000 }),
      contentType: 'image/jpeg',
    },
    '/lying.pdf': await lyingFile(),
    '/to-canary.pdf': {
      body: '',
      contentType: 'text/plain',
      status: 302,
      headers: { location: `${canaryUrl}/x.pdf` },
    },
    '/page.html': {
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html><head><title>Shop</title></head><body>
        <nav>Home | About</nav><main><h1>Order 991</h1><p id="late"></p>
        <img src="${canaryUrl}/pixel.png" alt="pixel"><iframe src="${canaryUrl}/frame"></iframe>
        </main><script>
          document.getElementById('late').textContent = 'Inserted after load: total 77.50';
          fetch('${canaryUrl}/beacon').catch(() => {});
        </script></body></html>`,
    },
  });
  const allow = `127.0.0.1:${fixtures.port}`;
  model = await startModelStandIn();
  api = await startTestApi({ SOURCE_ALLOWLIST: allow, EXTRACTION_WAIT_SECONDS: '60' });
  worker = await startTestWorker(api, model.url, {
    SOURCE_ALLOWLIST: allow,
    PREP_THREADS: '1',
    RENDER_CONCURRENCY: '1',
    PAGE_TIMEOUT_MS: '20000',
  });
  const res = await api.request('POST', '/v1/schemas', { json: { name: 'Docs', structure } });
  schemaId = res.body.data.id;
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
  await fixtures?.close();
  await new Promise((r) => canary?.close(r));
  expect(canaryConnections).toBe(0);
});

beforeEach(() => model.reset());

const create = (type: string, source: string) =>
  api.request('POST', '/v1/extractions', { json: { schema_id: schemaId, type, source } });

describe('pdf, image and webpage sources', () => {
  it('sends the text layer of a PDF to the model, page by page', async () => {
    const res = await create('pdf', `${fixtures.url}/report.pdf`);
    expect(res.status).toBe(200);
    const sent = model.requests[0]!;
    expect(sent.text).toContain('Quarterly report alpha 1234');
    expect(sent.text).toContain('Second page beta 5678');
    expect(sent.text.indexOf('alpha')).toBeLessThan(sent.text.indexOf('beta'));
    expect(sent.images).toHaveLength(0);
  });

  it('sends a scanned page as an image', async () => {
    const res = await create('pdf', `${fixtures.url}/scan.pdf`);
    expect(res.status).toBe(200);
    expect(model.requests[0]!.images).toHaveLength(1);
  });

  it('sends an image resized to what the model sees', async () => {
    const res = await create('image', `${fixtures.url}/photo.jpg`);
    expect(res.status).toBe(200);
    const images = model.requests[0]!.images;
    expect(images).toHaveLength(1);
    // gpt-4.1 fits 2048×2048, then 768 px on the short side: 3000×2000 → 1152×768.
    expect(images[0]).toMatchObject({ width: 1152, height: 768 });
  });

  it('renders a webpage with its script and sends compact text, not chrome', async () => {
    const res = await create('webpage', `${fixtures.url}/page.html`);
    expect(res.status).toBe(200);
    const text = model.requests[0]!.text;
    expect(text).toContain('Order 991');
    expect(text).toContain('Inserted after load: total 77.50');
    expect(text).not.toContain('<script');
  });

  it('fails with the source failure codes as 422 on source', async () => {
    const locked = await create('pdf', `${fixtures.url}/locked.pdf`);
    expect(locked.status).toBe(422);
    expect(locked.body).toMatchObject({
      code: 'SOURCE_UNREADABLE',
      errors: [{ field: 'source' }],
      extractionId: expect.any(String),
    });
    const lying = await create('pdf', `${fixtures.url}/lying.pdf`);
    expect(lying.body.code).toBe('SOURCE_UNSUPPORTED');
    const missing = await create('pdf', `${fixtures.url}/nope.pdf`);
    expect(missing.body.code).toBe('SOURCE_UNREACHABLE');
    expect(model.requests).toHaveLength(0);
  });

  it('refuses private places at submit time and at every redirect hop', async () => {
    const direct = await create('pdf', `${canaryUrl}/x.pdf`);
    expect(direct.status).toBe(422);
    expect(direct.body.errors[0].field).toBe('source');
    expect(direct.body.extractionId).toBeUndefined();
    const redirected = await create('pdf', `${fixtures.url}/to-canary.pdf`);
    expect(redirected.status).toBe(422);
    expect(redirected.body.code).toBe('SOURCE_FORBIDDEN');
    expect(canaryConnections).toBe(0);
  });
});
