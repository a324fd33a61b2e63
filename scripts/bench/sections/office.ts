/**
 * 13. Office files and email, end to end (run as a child process): PostgreSQL, Redis, one API
 * and one worker process as `npm start` runs them, and the model stand-in in this process in
 * oracle mode (answering at once from what reached it), so that every request the service sends
 * is read here. Measures:
 * - a 2,000-row price list (the `price-lists` data set's XLSX): the source tokens the service
 *   sends against the same sheet saved as CSV by LibreOffice (values as shown), the floor for
 *   any text form of it, and whether every row came back;
 * - an email with three attachments (a PDF invoice, a DOCX invoice and an XLSX price list from
 *   the data sets): wall time of a synchronous create and the tokens sent, against the same
 *   three files extracted one after another.
 * Tokens are counted with o200k_base (gpt-4.1's encoding); images by OpenAI's formula.
 * Prints `RESULT`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { countTokens } from 'gpt-tokenizer';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { visionTokens } from '@xt/sources';
import { composeEmail, convertWithLibreOffice } from '@xt/testkit/fixtures';
import { startModelStandIn } from '@xt/testkit/model-stand-in';
import type { RecordedRequest } from '@xt/testkit/model-stand-in';
import { emitResult, progress } from '../lib/child.ts';
import { REPO_ROOT, startApi, startServers, startWorker, Workdir } from '../lib/stack.ts';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '1' } } });
const reps = Number(values.reps);
const MODEL = 'gpt-4.1';
const sets = join(REPO_ROOT, 'datasets');
const file = (p: string) => readFile(join(sets, p));

export interface OfficeResult {
  sheet: {
    rows: number;
    returned: number;
    sourceTokens: number;
    csvTokens: number;
    calls: number;
    promptTokens: number;
  };
  email: {
    ms: number[];
    tokens: number;
    calls: number;
    separateMs: number[];
    separateTokens: number;
    separateCalls: number;
    facts: number;
    found: number;
  };
}

/** Every token a request sends: its messages' text and images. */
const requestTokens = (r: RecordedRequest) =>
  countTokens(r.text) +
  r.images.reduce(
    (n, i) =>
      n + (i.width && i.height ? visionTokens(MODEL, { width: i.width, height: i.height }) : 0),
    0,
  );

/** The source part of a request: what the service read from the file, not its instructions. */
const sourceOf = (r: RecordedRequest) => /<source>([\s\S]*)<\/source>/.exec(r.text)?.[1] ?? '';

const standIn = await startModelStandIn({ port: 0, defaultBehaviour: { oracle: true } });
const workdir = new Workdir();
const servers = await startServers('own');
const procs: { stop(): Promise<void> }[] = [];
try {
  const db = await servers.createDatabase('office');
  const env = {
    databaseUrl: db.url,
    redisUrl: servers.redisUrl,
    queuePrefix: 'benchoffice',
    modelUrl: standIn.url,
  };
  progress('§13 starting an API and a worker');
  const [api, worker] = await Promise.all([
    startApi(workdir, 'api', env),
    startWorker(workdir, 'worker', env),
  ]);
  procs.push(api, worker);
  const handle = createDb(db.url, { max: 1 });
  /**
   * A new account, so that nothing it sends was read or answered before (answers and
   * preparations are kept per account, docs/reuse.md): every figure is a first reading.
   */
  const account = async (name: string) => {
    const { key } = await createKey(handle.db, { accountName: name, scope: 'write' });
    const auth = { authorization: `Bearer ${key}` };
    const schema = async (dataset: string) => {
      const res = await fetch(`${api.url}/v1/schemas`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: await readFile(join(sets, dataset, 'schema.json'), 'utf8'),
      });
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    return { auth, invoices: await schema('invoices-text'), prices: await schema('price-lists') };
  };
  type Account = Awaited<ReturnType<typeof account>>;

  /** One synchronous create of an upload: its wall time, output and the requests it sent. */
  const extract = async (
    who: Account,
    schema: string,
    type: string,
    name: string,
    bytes: Buffer,
  ) => {
    const form = new FormData();
    form.set('schema_id', schema);
    form.set('type', type);
    form.set('source', new Blob([bytes]), name);
    const before = standIn.requests.length;
    const t0 = performance.now();
    const res = await fetch(`${api.url}/v1/extractions`, {
      method: 'POST',
      headers: { ...who.auth, prefer: 'wait=300' },
      body: form,
    });
    // The create's answer names the output `output`, the record `result`.
    type Answer = { data?: { id: string; status: string; output?: unknown; result?: unknown } };
    let answer = (await res.json()) as Answer;
    // Past the wait (a busy machine) the create answers 202: read the record until it is final.
    while (answer.data && ['pending', 'processing'].includes(answer.data.status)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const again = await fetch(`${api.url}/v1/extractions/${answer.data.id}`, {
        headers: who.auth,
      });
      answer = (await again.json()) as Answer;
    }
    const ms = performance.now() - t0;
    if (answer.data?.status !== 'completed') {
      throw new Error(`${name}: ${res.status} ${JSON.stringify(answer).slice(0, 500)}`);
    }
    const output = answer.data.output ?? answer.data.result;
    return { ms, output, requests: standIn.requests.slice(before) };
  };
  const tokensOf = (requests: RecordedRequest[]) =>
    requests.reduce((n, r) => n + requestTokens(r), 0);

  progress('§13 a 2,000-row price list');
  const first = await account('bench-office-sheet');
  const xlsx = await file('price-lists/cases/rows-2000.xlsx');
  const expected = JSON.parse(
    await readFile(join(sets, 'price-lists/expected/rows-2000.json'), 'utf8'),
  ) as {
    items: { sku: string }[];
  };
  const sheetRun = await extract(first, first.prices, 'spreadsheet', 'prices.xlsx', xlsx);
  const returned = new Set(((sheetRun.output as typeof expected).items ?? []).map((i) => i.sku));
  const csv = (
    await convertWithLibreOffice(
      [{ name: 'prices.xlsx', content: xlsx }],
      'csv:Text - txt - csv (StarCalc):44,34,76,1',
      { infilter: 'Calc MS Excel 2007 XML' },
    )
  ).get('prices')!;
  const sources = new Set(sheetRun.requests.map(sourceOf));
  const sheet = {
    rows: expected.items.length,
    returned: expected.items.filter((i) => returned.has(i.sku)).length,
    sourceTokens: [...sources].reduce((n, s) => n + countTokens(s), 0),
    csvTokens: countTokens(csv.toString('utf8')),
    calls: sheetRun.requests.length,
    promptTokens: tokensOf(sheetRun.requests),
  };

  progress('§13 an email with three attachments');
  const pdf = await file('invoices-text/cases/INV-2026-1001.pdf');
  const docx = await file('invoices-docx/cases/INV-2026-1002.docx');
  const small = await file('price-lists/cases/rows-0025.xlsx');
  const email: OfficeResult['email'] = {
    ms: [],
    tokens: 0,
    calls: 0,
    separateMs: [],
    separateTokens: 0,
    separateCalls: 0,
    facts: 0,
    found: 0,
  };
  const invoice = JSON.parse(
    await readFile(join(sets, 'invoices-text/expected/INV-2026-1001.json'), 'utf8'),
  ) as Record<string, unknown>;
  const eml = await composeEmail({
    from: 'Acme Supplies Ltd <billing@acme.example>',
    to: 'accounts@kestrel.example',
    subject: 'Invoices INV-2026-1001 and INV-2026-1002, and our price list',
    date: 'Mon, 09 Feb 2026 09:30:00 +0000',
    text: { content: 'Hello,\n\nplease find two invoices and our price list attached.\n\nAcme\n' },
    attachments: [
      { filename: 'INV-2026-1001.pdf', type: 'application/pdf', content: pdf },
      { filename: 'INV-2026-1002.docx', content: docx },
      { filename: 'prices.xlsx', content: small },
    ],
    seed: 1,
  });
  const scalar = Object.keys(invoice).filter((k) => typeof invoice[k] !== 'object');
  for (let rep = 0; rep < reps; rep++) {
    const who = await account(`bench-office-email-${rep}`);
    const run = await extract(who, who.invoices, 'email', 'mail.eml', eml);
    email.ms.push(run.ms);
    email.tokens = tokensOf(run.requests);
    email.calls = run.requests.length;
    const output = run.output as Record<string, unknown>;
    email.facts = scalar.length;
    email.found = scalar.filter((k) => output[k] === invoice[k]).length;

    const apart = await account(`bench-office-apart-${rep}`);
    let ms = 0;
    const requests: RecordedRequest[] = [];
    for (const [type, name, bytes, schema] of [
      ['pdf', 'INV-2026-1001.pdf', pdf, apart.invoices],
      ['document', 'INV-2026-1002.docx', docx, apart.invoices],
      ['spreadsheet', 'prices.xlsx', small, apart.prices],
    ] as const) {
      const alone = await extract(apart, schema, type, name, bytes);
      ms += alone.ms;
      requests.push(...alone.requests);
    }
    email.separateMs.push(ms);
    email.separateTokens = tokensOf(requests);
    email.separateCalls = requests.length;
  }
  await handle.close();
  emitResult({ sheet, email } satisfies OfficeResult);
} finally {
  for (const p of procs.reverse()) await p.stop();
  await servers.stop();
  await standIn.close();
  workdir.cleanup();
}
