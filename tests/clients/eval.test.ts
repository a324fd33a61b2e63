/**
 * `xt eval` end to end: the command (runEval, as the `xt` binary runs it) against the real
 * service (API in-process, a worker process, PostgreSQL, Redis) and the model stand-in in
 * oracle mode, on a small generated data set. The report's figures are checked exactly.
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

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-eval-test-'));
  await writeInvoicesText(path.join(dir, 'set'), COUNT, SEED);
  model = await startModelStandIn({ defaultBehaviour: { oracle: true } });
  api = await startTestApi();
  worker = await startTestWorker(api, model.url);
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
  await rm(dir, { recursive: true, force: true });
});

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

  it('says what is wrong with bad usage and an unreadable data set, exit 2', async () => {
    expect((await evaluate(['--min-accuracy', '1.5'])).stderr).toContain(
      '--min-accuracy must be a number from 0 to 1',
    );
    const missing = await evaluate([], path.join(dir, 'nothing'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('schema.json is missing');
  });
});
