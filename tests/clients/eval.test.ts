/**
 * `xt eval` end to end: the command (runEval, as the `xt` binary runs it) against the real
 * service (API in-process, a worker process, PostgreSQL, Redis) and the model stand-in in
 * oracle mode, on a small generated data set. The report's figures are checked exactly. Two
 * models are configured (MODEL_ENDPOINTS), each on its own stand-in: `gpt-4.1`, the default,
 * and `local-llama`, slower and unable to answer the first invoice, to compare side by side.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEval, type EvalReport } from '@xt/sdk/eval';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { makeInvoices, writeInvoicesText } from '@xt/testkit/datasets';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';

const SEED = 7;
const COUNT = 2;
const LOCAL_DELAY_MS = 300;

let api: TestApi;
let model: ModelStandIn;
let local: ModelStandIn;
let worker: AppProcess;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-eval-test-'));
  await writeInvoicesText(path.join(dir, 'set'), COUNT, SEED);
  model = await startModelStandIn({ defaultBehaviour: { oracle: true } });
  const unanswerable = makeInvoices(COUNT, SEED)[0]!.invoice_number;
  local = await startModelStandIn({
    dialect: { server: 'llamacpp' },
    models: ['local-llama'],
    defaultBehaviour: {
      oracle: true,
      delayMs: LOCAL_DELAY_MS,
      pick: (r) => (r.text.includes(unanswerable) ? { content: 'no JSON here' } : undefined),
    },
  });
  const endpoints = JSON.stringify([
    {
      name: 'cloud',
      kind: 'openai',
      baseUrl: model.url,
      apiKey: 'sk-test-key',
      models: [{ id: 'gpt-4.1', default: true }],
    },
    {
      name: 'local',
      kind: 'openai-compatible',
      baseUrl: local.url,
      models: [{ id: 'local-llama' }],
    },
  ]);
  api = await startTestApi({ MODEL_ENDPOINTS: endpoints });
  // One attempt: the case local-llama cannot answer fails after its repairs, not three times.
  worker = await startTestWorker(api, model.url, { MODEL_ENDPOINTS: endpoints, JOB_ATTEMPTS: '1' });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
  await local?.close();
  await rm(dir, { recursive: true, force: true });
});

// The report's own formatting (packages/sdk/src/eval/format.ts), to find figures in the table.
const format = {
  pct: (v: number) => `${(v * 100).toFixed(1)}%`,
  usd: (v: number | null) => `$${(v ?? NaN).toFixed(4)}`,
  ms: (v: number) => (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`),
};

function sink() {
  let text = '';
  return {
    stream: { write: (chunk: string) => (text += chunk), isTTY: false },
    text: () => text,
  };
}

async function evaluate(extra: string[], dataset = path.join(dir, 'set')) {
  const stdout = sink();
  const stderr = sink();
  const code = await runEval(
    ['--dataset', dataset, '--base-url', api.url, '--key', api.keys.write, ...extra],
    { stdout: stdout.stream, stderr: stderr.stream, cwd: dir },
  );
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const readReport = async (file: string) =>
  JSON.parse(await readFile(path.join(dir, file), 'utf8')) as EvalReport;

describe('xt eval', () => {
  it('scores every case against the service and writes JSON, Markdown and HTML', async () => {
    const invoices = makeInvoices(COUNT, SEED);
    const lineCount = invoices.reduce((sum, inv) => sum + inv.lines.length, 0);
    // Six scalars per invoice (number, date, vendor, customer, currency, total), four per line.
    const leaves = COUNT * 6 + lineCount * 4;

    const run = await evaluate(['--out', 'base.json', '--concurrency', '2']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = await readReport('base.json');
    expect(report.summary).toMatchObject({
      cases: COUNT,
      completed: COUNT,
      failed: 0,
      leaves,
      matched: leaves,
      accuracy: 1,
    });
    expect(report.fields.map((f) => [f.pattern, f.leaves, f.accuracy])).toEqual([
      ['/invoice_number', COUNT, 1],
      ['/invoice_date', COUNT, 1],
      ['/vendor_name', COUNT, 1],
      ['/customer_name', COUNT, 1],
      ['/currency', COUNT, 1],
      ['/lines/*/description', lineCount, 1],
      ['/lines/*/quantity', lineCount, 1],
      ['/lines/*/unit_price', lineCount, 1],
      ['/lines/*/amount', lineCount, 1],
      ['/total', COUNT, 1],
    ]);
    expect(report.arrays).toEqual([
      {
        pattern: '/lines',
        expectedItems: lineCount,
        actualItems: lineCount,
        foundItems: lineCount,
        precision: 1,
        recall: 1,
      },
    ]);

    // Tokens and ids are the service's own: each case's record says the same.
    for (const c of report.cases) {
      const record = await api.request('GET', `/v1/extractions/${c.extractionId}`);
      expect(record.body.data.status).toBe('completed');
      expect(c.tokens).toBe(record.body.data.totalTokens);
      expect(record.body.data.metadata).toEqual({ eval_case: c.case });
    }
    expect(report.summary.tokens).toBe(report.cases.reduce((s, c) => s + c.tokens, 0));
    expect(report.cases.map((c) => c.case)).toEqual(invoices.map((i) => i.invoice_number));
    // gpt-4.1 at $2 in / $8 out per 1M tokens, the answer's JSON counted as output.
    const expectedCost = report.cases.reduce((sum, c, i) => {
      const out = Math.min(c.tokens, Math.ceil(JSON.stringify(invoices[i]).length / 4));
      return sum + ((c.tokens - out) * 2 + out * 8) / 1e6;
    }, 0);
    expect(report.summary.estimatedCost).toBeCloseTo(expectedCost, 6);
    expect(report.summary.latencyMs.p95).toBeGreaterThanOrEqual(report.summary.latencyMs.p50);

    expect(run.stdout).toContain('| 2 | 2 | 0 | 100.0% |');
    expect(run.stdout).toContain('| `/lines/*/amount` | 100.0% |');
    const html = await readFile(path.join(dir, 'base.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<code>/lines/*/amount</code>');
    // Self-contained: nothing fetched from elsewhere.
    expect(html).not.toMatch(/<(script|link|img)\b|src=|url\(/i);
  });

  it('fails --min-accuracy on a planted regression and --compare names the field', async () => {
    const planted = path.join(dir, 'planted');
    await writeInvoicesText(planted, COUNT, SEED);
    const first = makeInvoices(COUNT, SEED)[0]!;
    const file = path.join(planted, 'expected', `${first.invoice_number}.json`);
    await writeFile(file, JSON.stringify({ ...first, currency: 'CHF' }));

    const run = await evaluate(
      ['--out', 'planted.json', '--compare', 'base.json', '--min-accuracy', '0.99'],
      planted,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('below --min-accuracy 0.99');
    const report = await readReport('planted.json');
    expect(report.summary.matched).toBe(report.summary.leaves - 1);
    expect(report.cases[0]!.mismatches).toEqual([
      { path: '/currency', expected: 'CHF', actual: first.currency },
    ]);
    expect(report.comparison?.regressions).toEqual([
      { pattern: '/currency', before: 1, after: 0.5, delta: -0.5 },
    ]);
    expect(report.comparison?.gains).toEqual([]);
    expect(run.stdout).toMatch(
      /Regressions:\n\n\| Field \| Before \| After \| Change \|\n.*\n\| `\/currency` \| 100\.0% \| 50\.0% \| -50\.0 pt \|/,
    );

    // At or above the bar, the same run passes.
    expect(
      (await evaluate(['--min-accuracy', String(report.summary.accuracy)], planted)).code,
    ).toBe(0);
  });

  it('runs several models in one go and prints their figures side by side', async () => {
    const invoices = makeInvoices(COUNT, SEED);
    const leavesOf = (i: number) => 6 + invoices[i]!.lines.length * 4;
    const leaves = invoices.reduce((sum, _, i) => sum + leavesOf(i), 0);

    const run = await evaluate(['--models', 'gpt-4.1,local-llama', '--out', 'multi.json']);
    expect(run.code).toBe(0);
    const cloud = await readReport('multi.gpt-4.1.json');
    const llama = await readReport('multi.local-llama.json');
    expect([cloud.settings.model, llama.settings.model]).toEqual(['gpt-4.1', 'local-llama']);
    expect(cloud.summary).toMatchObject({ failed: 0, accuracy: 1 });
    // The first invoice failed on local-llama: none of its leaves, all of the second's.
    expect(llama.summary).toMatchObject({ failed: 1, matched: leavesOf(1), leaves });
    expect(llama.cases[0]!.error?.code).toBe('OUTPUT_INVALID');
    expect(llama.summary.latencyMs.p50).toBeGreaterThanOrEqual(LOCAL_DELAY_MS);

    // Each column is its own model's: its records name it, and their tokens and costs add up.
    for (const [id, report] of [
      ['gpt-4.1', cloud],
      ['local-llama', llama],
    ] as const) {
      let tokens = 0;
      let cost = 0;
      for (const c of report.cases) {
        const record = await api.request('GET', `/v1/extractions/${c.extractionId}`);
        expect(record.body.data.metadata).toEqual({ eval_case: c.case });
        tokens += record.body.data.totalTokens as number;
        cost += record.body.data.usage.estimatedCostUsd as number;
      }
      expect(report.summary.tokens, id).toBe(tokens);
      expect(report.summary.recordedCostUsd, id).toBeCloseTo(cost, 6);
    }
    expect(local.requests.filter((r) => r.text.includes(invoices[1]!.invoice_number))).toHaveLength(
      1,
    );
    expect(model.requests.filter((r) => r.model === 'local-llama')).toEqual([]);

    const table = run.stdout.slice(run.stdout.indexOf('# Models side by side'));
    const row = (label: string, figure: (r: EvalReport) => string) =>
      `| ${label} | ${figure(cloud)} | ${figure(llama)} |`;
    expect(table).toContain('| | `gpt-4.1` | `local-llama` |');
    expect(table).toContain(row('Accuracy', (r) => format.pct(r.summary.accuracy)));
    expect(table).toContain(`| Accuracy | 100.0% | ${format.pct(leavesOf(1) / leaves)} |`);
    expect(table).toContain(row('Total tokens', (r) => String(r.summary.tokens)));
    expect(table).toContain(row('Estimated cost', (r) => format.usd(r.summary.recordedCostUsd)));
    expect(table).toContain(
      row('Latency per document, median', (r) => format.ms(r.summary.latencyMs.p50)),
    );
    expect(table).toContain(
      row('Latency per document, p95', (r) => format.ms(r.summary.latencyMs.p95)),
    );
    expect(table).toContain('| Failures | 0 of 2 | 1 of 2 |');

    const both = await evaluate(['--model', 'gpt-4.1', '--models', 'local-llama']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --model or --models, not both');
  });

  it('says what is wrong with bad usage and an unreadable data set, exit 2', async () => {
    expect((await evaluate(['--min-accuracy', '1.5'])).stderr).toContain(
      '--min-accuracy must be a number from 0 to 1',
    );
    const missing = await evaluate([], path.join(dir, 'nothing'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('schema.json is missing');
  });
});
