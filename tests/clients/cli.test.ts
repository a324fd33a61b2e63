/**
 * The `xt` command line (packages/sdk/src/cli) as a user runs it: a real process against the
 * real API, a worker process, PostgreSQL and Redis, with the model stand-in.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { REPO_ROOT, TS_NODE_ARGS } from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import { bundlePdf } from '../support/bundle.ts';
import { stackTest } from '../support/stack.ts';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the `xt` binary from the SDK's sources (Node's type transform) as a real process, with
 * only the connection variables given: none of the test runner's XT_* or DATA_DIR leak in.
 */
function runXt(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliRun> {
  const env = { ...process.env };
  for (const name of ['XT_BASE_URL', 'XT_API_KEY', 'DATA_DIR']) delete env[name];
  const child = spawn(
    process.execPath,
    [...TS_NODE_ARGS, `${REPO_ROOT}/packages/sdk/src/bin/xt.ts`, ...args],
    { cwd: options.cwd, env: { ...env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Webhook endpoints must be public addresses; this test's endpoint is exempted. Reuse is on
// with the service's own default age, as a user's `xt extract` meets it (docs/reuse.md).
const test = stackTest({
  api: { WEBHOOK_ALLOWLIST: '127.0.0.1:9', CACHE_MAX_AGE_SECONDS: '604800' },
  openApi: false,
});

let dir: string;
let env: Record<string, string>;

const invoiceSchema = {
  name: 'CLI invoice',
  structure: {
    type: 'object',
    properties: { total: { type: 'number' }, vendor: { type: 'string' } },
  },
};

test.beforeAll(async ({ api }) => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-cli-test-'));
  env = { XT_BASE_URL: api.url, XT_API_KEY: api.keys.write };
  await writeFile(path.join(dir, 'schema.json'), JSON.stringify(invoiceSchema));
}, 120_000);

test.afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test.beforeEach(({ model }) => {
  model.reset();
  // The answer depends on the document, so each output line can be told apart.
  model.setDefaultBehaviour({
    respond: (r) => ({
      total: Number(/Total (\d+(?:\.\d+)?)/.exec(r.text)?.[1] ?? 0),
      vendor: 'ACME, "Ltd"',
    }),
  });
});

async function lines(file: string): Promise<any[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

async function folderOf(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const folder = path.join(dir, name);
  await mkdir(folder, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    await writeFile(path.join(folder, file), content);
  }
  return folder;
}

describe('xt extract', () => {
  test('extracts a folder at once into JSONL, and a second run does nothing again', async ({
    api,
    model,
  }) => {
    await folderOf('docs', {
      'a.txt': 'Invoice A. Total 12.50',
      'b.md': '# Invoice B\nTotal 7',
      'c.pdf': Buffer.from(await textPdf(['Invoice C', 'Total 99'])),
      'notes.bin': 'not a document',
      '.hidden.txt': 'Total 1',
    });
    const run = await runXt(
      ['extract', '--schema', 'schema.json', '-o', 'out.jsonl', '-c', '3', 'docs'],
      { cwd: dir, env },
    );
    expect(run.stderr).toContain('skipped docs/notes.bin');
    expect(run.stderr).toContain('3 completed, 0 failed, 0 already in the output');
    expect(run.code).toBe(0);
    const first = await lines(path.join(dir, 'out.jsonl'));
    expect(first.map((l) => [l.source, l.status, l.output.total]).sort()).toEqual([
      ['docs/a.txt', 'completed', 12.5],
      ['docs/b.md', 'completed', 7],
      ['docs/c.pdf', 'completed', 99],
    ]);
    expect(model.requests).toHaveLength(3);

    const again = await runXt(['extract', '--schema', 'schema.json', '-o', 'out.jsonl', 'docs'], {
      cwd: dir,
      env,
    });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('0 completed, 0 failed, 3 already in the output');
    expect(await lines(path.join(dir, 'out.jsonl'))).toHaveLength(3);
    expect(model.requests).toHaveLength(3);
    // One schema for both runs: it was created under its file's hash.
    const schemas = await api.request('GET', '/v1/schemas?search=CLI%20invoice');
    expect(schemas.body.data.meta.total).toBe(1);
  });

  test('derives idempotency keys from the content, so a lost output costs no second extraction', async ({
    model,
  }) => {
    await folderOf('keyed', { 'x.txt': 'Total 3', 'y.txt': 'Total 4' });
    const args = ['extract', '--schema', 'schema.json', 'keyed'];
    const first = await runXt([...args, '-o', 'k1.jsonl'], { cwd: dir, env });
    expect(first.code).toBe(0);
    expect(model.requests).toHaveLength(2);
    // Another output file holds nothing, so both inputs are sent again: the service replays.
    const second = await runXt([...args, '-o', 'k2.jsonl'], { cwd: dir, env });
    expect(second.code).toBe(0);
    expect(model.requests).toHaveLength(2);
    const ids = async (f: string) => (await lines(path.join(dir, f))).map((l) => l.id).sort();
    expect(await ids('k2.jsonl')).toEqual(await ids('k1.jsonl'));

    // A changed file is new content: a new extraction, and the old line stays for the old bytes.
    await writeFile(path.join(dir, 'keyed', 'x.txt'), 'Total 30');
    const third = await runXt([...args, '-o', 'k1.jsonl'], { cwd: dir, env });
    expect(third.stderr).toContain('1 completed, 0 failed, 1 already in the output');
    expect(model.requests).toHaveLength(3);
    const rows = await lines(path.join(dir, 'k1.jsonl'));
    expect(rows.filter((r) => r.source === 'keyed/x.txt').map((r) => r.output.total)).toEqual([
      3, 30,
    ]);
  });

  test('records a failure, exits 1, and retries it as a new request on the next run', async ({
    model,
  }) => {
    await folderOf('flaky', { 'f.txt': 'Total 5' });
    model.behave({ refuse: 'I will not' });
    const failed = await runXt(
      ['extract', '--schema', 'schema.json', '-o', 'flaky.jsonl', 'flaky/f.txt'],
      { cwd: dir, env },
    );
    expect(failed.code).toBe(1);
    const [row] = await lines(path.join(dir, 'flaky.jsonl'));
    expect(row).toMatchObject({ source: 'flaky/f.txt', status: 'failed', output: null });
    expect(row.error.code).toBe('MODEL_REFUSED');

    const retried = await runXt(
      ['extract', '--schema', 'schema.json', '-o', 'flaky.jsonl', 'flaky/f.txt'],
      { cwd: dir, env },
    );
    expect(retried.code).toBe(0);
    const rows = await lines(path.join(dir, 'flaky.jsonl'));
    expect(rows.map((r) => r.status)).toEqual(['failed', 'completed']);
    expect(rows[1].id).not.toBe(rows[0].id);
  });

  test('writes CSV with a column per schema field, and resumes from it', async () => {
    await folderOf('csv', { 'one.txt': 'Total 1.5', 'two.txt': 'Total 2' });
    const args = ['extract', '--schema', 'schema.json', '-o', 'out.csv', 'csv'];
    expect((await runXt(args, { cwd: dir, env })).code).toBe(0);
    const text = await readFile(path.join(dir, 'out.csv'), 'utf8');
    const [header, ...rows] = text.trimEnd().split('\r\n');
    expect(header).toBe('source,sha256,id,status,error_code,error_message,warnings,total,vendor');
    expect(rows.map((r) => r.split(',')[0]).sort()).toEqual(['csv/one.txt', 'csv/two.txt']);
    expect(rows.find((r) => r.startsWith('csv/one.txt'))).toMatch(
      /,completed,,,,1\.5,"ACME, ""Ltd"""$/,
    );

    const again = await runXt(args, { cwd: dir, env });
    expect(again.stderr).toContain('2 already in the output');
    expect(await readFile(path.join(dir, 'out.csv'), 'utf8')).toBe(text);
  });

  test('asks for citations with --citations, in JSONL and as a CSV column', async ({ api }) => {
    await folderOf('cited', { 'c.txt': 'Invoice. Total 12.50' });
    const run = await runXt(['extract', '-s', 'schema.json', '--citations', 'cited'], {
      cwd: dir,
      env,
    });
    expect(run.code).toBe(0);
    const row = JSON.parse(run.stdout);
    expect(row).toHaveProperty('citations');
    // The vendor is nowhere in the source: the service says so, and so do both formats.
    expect(row.warnings.map((w: { code: string }) => w.code)).toContain('UNGROUNDED_VALUES');
    // The service recorded the request as one asking for citations.
    const record = await api.request('GET', `/v1/extractions/${row.id}`);
    expect(record.body.data).toHaveProperty('citations');
    expect(row.citations).toEqual(record.body.data.citations);
    const plain = await runXt(['extract', '-s', 'schema.json', 'cited'], { cwd: dir, env });
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('citations');
    expect(JSON.parse(plain.stdout).id).not.toBe(row.id);

    const csv = await runXt(['extract', '-s', 'schema.json', '--citations', '-f', 'csv', 'cited'], {
      cwd: dir,
      env,
    });
    const [header, line] = csv.stdout.split('\r\n');
    expect(header).toMatch(/,error_message,warnings,total,vendor,citations$/);
    expect(line).toContain('""code"":""UNGROUNDED_VALUES""');
  });

  test('reuses earlier answers by default, and --no-cache does the work afresh', async ({
    model,
  }) => {
    await folderOf('reused', { 'r.txt': 'Invoice R. Total 77' });
    const first = await runXt(['extract', '-s', 'schema.json', 'reused'], { cwd: dir, env });
    expect(first.code).toBe(0);
    expect(model.requests).toHaveLength(1);
    const original = JSON.parse(first.stdout);
    // The same content under another name, in another run: no output file, no shared key.
    await folderOf('reused-again', { 'copy.txt': 'Invoice R. Total 77' });
    const second = await runXt(['extract', '-s', 'schema.json', 'reused-again'], {
      cwd: dir,
      env,
    });
    expect(second.code, second.stdout).toBe(0);
    const copy = JSON.parse(second.stdout);
    expect(copy).toMatchObject({
      status: 'completed',
      output: original.output,
      reused: { extractionId: original.id },
    });
    expect(model.requests).toHaveLength(1);
    const fresh = await runXt(['extract', '-s', 'schema.json', '--no-cache', 'reused-again'], {
      cwd: dir,
      env,
    });
    expect(JSON.parse(fresh.stdout)).not.toHaveProperty('reused');
    expect(model.requests).toHaveLength(2);
    const both = await runXt(
      ['extract', '-s', 'schema.json', '--no-cache', '--cache-max-age', '5', 'reused'],
      { cwd: dir, env },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('contradict');
  });

  test('takes a URL as a webpage source and names refused inputs in the output', async () => {
    // The service refuses private addresses at submit time: a per-input failure, not a crash.
    const run = await runXt(['extract', '--schema', 'schema.json', 'http://127.0.0.1:9/page'], {
      cwd: dir,
      env,
    });
    expect(run.code).toBe(1);
    const row = JSON.parse(run.stdout.trim());
    expect(row).toMatchObject({ source: 'http://127.0.0.1:9/page', status: 'failed', id: null });
    expect(row.error.code).toBe('VALIDATION_FAILED');
  });

  test('refuses bad command lines with exit code 2 and says why', async () => {
    const missing = await runXt(['extract', 'docs'], { cwd: dir, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--schema is required');
    const unknown = await runXt(['frobnicate'], { cwd: dir, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const badType = await runXt(['extract', '-s', 'x', '-t', 'docx', 'a'], { cwd: dir, env });
    expect(badType.stderr).toContain('--type must be one of text, image, pdf, webpage');
  });
});

describe('xt schemas suggest and convert', () => {
  test('drafts a structure from sample files, and converts a JSON Schema', async ({ model }) => {
    model.setDefaultBehaviour({});
    await writeFile(
      path.join(dir, 'sample.md'),
      'Invoice number: INV-9\nVendor: Osprey Mills\nTotal due: 12.50\n',
    );
    const suggested = await runXt(['schemas', 'suggest', 'sample.md'], { cwd: dir, env });
    expect(suggested.code, suggested.stderr).toBe(0);
    const draft = JSON.parse(suggested.stdout);
    expect(draft).toMatchObject({ type: 'object' });
    expect(Object.keys(draft.properties).length).toBeGreaterThan(0);
    expect(suggested.stderr).toMatch(/^sample\.md: \d+ of \d+ fields found/m);
    // the draft is what `xt schemas create` takes
    await writeFile(path.join(dir, 'drafted.json'), suggested.stdout);
    expect((await runXt(['schemas', 'create', 'drafted.json'], { cwd: dir, env })).code).toBe(0);

    await writeFile(
      path.join(dir, 'pydantic.json'),
      JSON.stringify({
        type: 'object',
        $defs: { Line: { type: 'object', properties: { amount: { type: 'number' } } } },
        properties: {
          lines: { type: 'array', items: { $ref: '#/$defs/Line' } },
          note: { type: 'string', format: 'email' },
        },
      }),
    );
    const converted = await runXt(['schemas', 'convert', 'pydantic.json'], { cwd: dir, env });
    expect(converted.code, converted.stderr).toBe(0);
    expect(JSON.parse(converted.stdout).properties.lines).toMatchObject({
      type: 'array',
      items: { type: 'object', properties: { amount: { type: 'number' } } },
    });
    const tooMany = await runXt(['schemas', 'suggest', ...Array(6).fill('sample.md')], {
      cwd: dir,
      env,
    });
    expect(tooMany.code).not.toBe(0);
    expect(tooMany.stderr).toContain('expected one to five sample files');
  });
});

describe('xt split', () => {
  test('prints one line per document, or the records as JSON, and exits 1 on a refusal', async ({
    model,
  }) => {
    // The stand-in classifies the pages by their titles; no answer told to it overrides that.
    model.setDefaultBehaviour({});
    await writeFile(path.join(dir, 'bundle.pdf'), await bundlePdf());
    const classes = ['--class', 'invoice=schema.json', '--class', 'contract'];
    const describe = ['--describe', 'invoice=A bill asking for payment'];
    const run = await runXt(['split', 'bundle.pdf', ...classes, ...describe], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    const [heading, ...rows] = run.stdout.trimEnd().split('\n');
    expect(heading!.split(/ {2,}/)).toEqual([
      'CLASS',
      'PAGES',
      'CONFIDENCE',
      'EXTRACTION',
      'STATUS',
    ]);
    const id = expect.stringMatching(/^[0-9a-f-]{36}$/);
    expect(rows.map((r) => r.split(/ {2,}/))).toEqual([
      ['other', '1', '0.50', '-', '-'],
      ['invoice', '2-3', '0.80', id, 'completed'],
      ['contract', '4', '0.95', '-', '-'],
      ['invoice', '5', '0.95', id, 'completed'],
    ]);
    expect(run.stderr).toMatch(/^bundle [0-9a-f-]{36}: 4 documents, 2 extracted, 0 failed$/m);

    const json = await runXt(['split', 'bundle.pdf', ...classes, '--no-other', '--json'], {
      cwd: dir,
      env,
    });
    expect(json.code, json.stderr).toBe(0);
    const outcome = JSON.parse(json.stdout);
    expect(outcome.parent).toMatchObject({ status: 'completed', split: { other: false } });
    // The schema file made one schema, used by both runs.
    const schemaId = outcome.parent.split.classes[0].schema_id;
    for (const d of outcome.documents.filter((d: { extraction: unknown }) => d.extraction))
      expect(d.extraction).toMatchObject({ parentId: outcome.parent.id, schemaId, pages: d.pages });

    const reserved = await runXt(['split', 'bundle.pdf', '--class', 'other'], { cwd: dir, env });
    expect(reserved.code).toBe(1);
    expect(reserved.stderr).toMatch(/^xt split: 422 .*split\.classes\[0\]\.name/);
    const bad = await runXt(['split', 'bundle.pdf', '--describe', 'x=y', '--class', 'y'], {
      cwd: dir,
      env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('there is no --class x');
  });
});

describe('xt schemas, extractions and webhooks', () => {
  test('creates, lists and reads schemas, and reads and deletes extractions', async ({ model }) => {
    await writeFile(
      path.join(dir, 'receipt.json'),
      JSON.stringify({ type: 'object', properties: { paid: { type: 'boolean' } } }),
    );
    const created = await runXt(['schemas', 'create', 'receipt.json'], { cwd: dir, env });
    expect(created.code).toBe(0);
    const schema = JSON.parse(created.stdout);
    expect(schema).toMatchObject({ name: 'receipt', structure: { type: 'object' } });

    const listed = await runXt(['schemas', 'list', '--search', 'receipt'], { cwd: dir, env });
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([schema.id]);
    const got = await runXt(['schemas', 'get', schema.id], { cwd: dir, env });
    expect(JSON.parse(got.stdout)).toEqual(schema);

    model.setDefaultBehaviour({});
    await folderOf('one', { 'r.txt': 'paid' });
    const run = await runXt(['extract', '-s', schema.id, 'one'], { cwd: dir, env });
    const id = JSON.parse(run.stdout).id as string;
    const all = await runXt(['extractions', 'list', '--schema', schema.id, '--all'], {
      cwd: dir,
      env,
    });
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([id]);
    const record = JSON.parse((await runXt(['extractions', 'get', id], { cwd: dir, env })).stdout);
    expect(record).toMatchObject({ id, status: 'completed', schemaId: schema.id });
    expect((await runXt(['extractions', 'delete', id], { cwd: dir, env })).code).toBe(0);
    const gone = await runXt(['extractions', 'get', id], { cwd: dir, env });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/404/);
  });

  test('reuses a schema of the same name and structure rather than making a second', async ({
    api,
  }) => {
    const structure = { type: 'object', properties: { net: { type: 'number' } } };
    await writeFile(path.join(dir, 'net.json'), JSON.stringify({ name: 'Net amounts', structure }));
    const first = JSON.parse(
      (await runXt(['schemas', 'create', 'net.json'], { cwd: dir, env })).stdout,
    );
    // The same schema written otherwise, so another Idempotency-Key: still the same schema.
    await writeFile(
      path.join(dir, 'net-again.json'),
      JSON.stringify({ structure, description: null, name: 'Net amounts' }),
    );
    const again = await runXt(['schemas', 'create', 'net-again.json'], { cwd: dir, env });
    expect(JSON.parse(again.stdout).id).toBe(first.id);
    expect(again.stderr).toBe(`schema ${first.id} has this name and structure: using it\n`);
    // Another structure under the same name is another schema.
    await writeFile(
      path.join(dir, 'net-vat.json'),
      JSON.stringify({
        name: 'Net amounts',
        structure: {
          ...structure,
          properties: { ...structure.properties, vat: { type: 'number' } },
        },
      }),
    );
    const changed = await runXt(['schemas', 'create', 'net-vat.json'], { cwd: dir, env });
    expect(JSON.parse(changed.stdout).id).not.toBe(first.id);
    const named = await api.request('GET', '/v1/schemas?search=Net%20amounts');
    expect(named.body.data.meta.total).toBe(2);
  });

  test('manages webhook endpoints', async () => {
    const created = await runXt(
      ['webhooks', 'create', '--url', 'http://127.0.0.1:9/xt', '--event', 'extraction.failed'],
      { cwd: dir, env },
    );
    expect(created.stderr).toContain('shown only once');
    expect(created.code).toBe(0);
    const endpoint = JSON.parse(created.stdout);
    expect(endpoint).toMatchObject({ events: ['extraction.failed'], enabled: true });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const updated = await runXt(['webhooks', 'update', endpoint.id, '--disable'], {
      cwd: dir,
      env,
    });
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: endpoint.id, enabled: false });
    const listed = await runXt(['webhooks', 'list'], { cwd: dir, env });
    expect(listed.stdout).toContain(endpoint.id);
    const deliveries = await runXt(['webhooks', 'deliveries', endpoint.id], { cwd: dir, env });
    expect(JSON.parse(deliveries.stdout).data).toEqual([]);
    expect((await runXt(['webhooks', 'delete', endpoint.id], { cwd: dir, env })).code).toBe(0);
    const bad = await runXt(
      ['webhooks', 'create', '--url', 'https://x.example', '--event', 'nope'],
      { cwd: dir, env },
    );
    expect(bad.code).toBe(2);
  });

  test('runs xt eval with the same connection as the other commands', async ({ model }) => {
    model.setDefaultBehaviour({ output: { total: 12.5, vendor: 'ACME' } });
    const dataset = await folderOf('dataset', { 'schema.json': JSON.stringify(invoiceSchema) });
    await folderOf('dataset/cases', { 'one.txt': 'ACME. Total 12.50' });
    await folderOf('dataset/expected', {
      'one.json': JSON.stringify({ total: 12.5, vendor: 'ACME' }),
    });
    const run = await runXt(['eval', '--dataset', dataset, '--min-accuracy', '1'], {
      cwd: dir,
      env,
    });
    expect(run.stderr).not.toContain('xt eval:');
    expect(run.code).toBe(0);
    expect(model.requests).toHaveLength(1);
    const help = await runXt(['--help'], { cwd: dir });
    expect(help.stdout).toMatch(/^ {2}eval +score the service/m);
  });

  test('finds the development key and address of a local npm start without any variable', async ({
    api,
  }) => {
    const checkout = path.join(dir, 'checkout');
    await mkdir(path.join(checkout, '.data'), { recursive: true });
    await mkdir(path.join(checkout, 'deep', 'down'), { recursive: true });
    await writeFile(path.join(checkout, '.data', 'dev-api-key.txt'), `${api.keys.read}\n`);
    await writeFile(
      path.join(checkout, '.data', 'stack.json'),
      JSON.stringify({ pid: process.pid, apiUrl: api.url }),
    );
    const run = await runXt(['schemas', 'list', '--all'], {
      cwd: path.join(checkout, 'deep', 'down'),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"CLI invoice"');

    const nowhere = await runXt(['schemas', 'list'], { cwd: os.tmpdir() });
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('No API key: set XT_API_KEY');
  });
});
