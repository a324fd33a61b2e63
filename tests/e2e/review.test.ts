/**
 * Review end to end: a schema's review settings queue completed extractions, the queue is
 * listed, a review is decided once (refusals write nothing, two at once: one wins), the
 * `extraction.reviewed` webhook is delivered, and approved extractions export as a data set.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import type { TestApi } from '@xt/api/testing';
import { REPO_ROOT, TS_NODE_ARGS, waitFor } from '@xt/testkit';
import { stackTest } from '../support/stack.ts';

const received: { type: string; data: { id: string; review?: { status: string } } }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof received)[0]);
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const allow = { WEBHOOK_ALLOWLIST: new URL(receiverUrl).host };

const test = stackTest({
  api: { ...allow, EXTRACTION_WAIT_SECONDS: '20' },
  worker: { ...allow, WEBHOOK_RELAY_INTERVAL_MS: '100' },
});

const structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true },
    total: { type: 'number' },
    lines: {
      type: 'array',
      items: { type: 'object', properties: { amount: { type: 'number' } } },
    },
  },
};

let reviewed: string;
let plain: string;

test.beforeAll(async ({ api }) => {
  const schema = (json: object) => api.request('POST', '/v1/schemas', { json });
  reviewed = (await schema({ name: 'Reviewed', structure, review: { minConfidence: 0.5 } })).body
    .data.id;
  plain = (await schema({ name: 'Plain', structure })).body.data.id;
  const hook = await api.request('POST', '/v1/webhooks', {
    json: { url: receiverUrl, events: ['extraction.reviewed'] },
  });
  expect(hook.status).toBe(201);
});

test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

async function extract(api: TestApi, schemaId: string, source: string) {
  const res = await api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source },
  });
  expect(res.status).toBe(200);
  return res.body.data.id as string;
}

const missingNumber = { number: '', total: 12.5, lines: [{ amount: 1 }] };
const fields = (res: { body: { errors?: { field: string }[] } }) =>
  (res.body.errors ?? []).map((e) => e.field);

describe('review', () => {
  test('queues an extraction whose required value was not found, and only under review settings', async ({
    api,
    model,
  }) => {
    model.behave([{ output: missingNumber }, { output: missingNumber }]);
    const queued = await extract(api, reviewed, 'Total: 12.50');
    const other = await extract(api, plain, 'Total: 12.50');
    const got = await api.request('GET', `/v1/extractions/${queued}`);
    expect(got.body.data.review).toEqual({
      status: 'needs_review',
      reasons: [
        { code: 'REQUIRED_NOT_FOUND', path: '/number', message: 'a required value was not found' },
      ],
      reviewedAt: null,
      reviewedBy: null,
      note: null,
    });
    expect(got.body.data).not.toHaveProperty('reviewedResult');
    expect((await api.request('GET', `/v1/extractions/${other}`)).body.data).not.toHaveProperty(
      'review',
    );

    const list = await api.request('GET', `/v1/reviews?status=needs_review&schema_id=${reviewed}`);
    expect(list.status).toBe(200);
    expect(list.body.data.data.map((r: { id: string }) => r.id)).toContain(queued);
    expect(list.body.data.data.map((r: { id: string }) => r.id)).not.toContain(other);
    const bad = await api.request('GET', '/v1/reviews?status=done&schema_id=x');
    expect(bad.status).toBe(422);
    expect(fields(bad).sort()).toEqual(['schema_id', 'status']);

    const notQueued = await api.request('POST', `/v1/extractions/${other}/review`, {
      json: { decision: 'approve' },
    });
    expect(notQueued.status).toBe(422);
    expect(fields(notQueued)).toEqual(['id']);
  });

  test('refuses bad corrections and read-only keys without writing anything', async ({
    api,
    model,
  }) => {
    model.behave({ output: missingNumber });
    const id = await extract(api, reviewed, 'Total: 12.50');
    const review = (json: object, key?: string) =>
      api.request('POST', `/v1/extractions/${id}/review`, { json, ...(key ? { key } : {}) });

    expect((await review({ decision: 'approve' }, api.keys.read)).status).toBe(403);
    const wrong = await review({
      decision: 'approve',
      corrections: { '/number': 'INV-1', '/nope': 1, '/total': '12', '/lines/5/amount': 2 },
    });
    expect(wrong.status).toBe(422);
    expect(fields(wrong)).toEqual([
      'corrections["/nope"]',
      'corrections["/total"]',
      'corrections["/lines/5/amount"]',
    ]);
    expect(fields(await review({ decision: 'maybe' }))).toEqual(['decision']);
    const after = await api.request('GET', `/v1/extractions/${id}`);
    expect(after.body.data.review.status).toBe('needs_review');
    expect(after.body.data.result).toEqual(missingNumber);
  });

  test('approves with corrections once: two at once, one wins; the webhook fires; the data set exports it', async ({
    api,
    model,
  }) => {
    model.behave({ output: missingNumber });
    const id = await extract(api, reviewed, 'Invoice number: INV-9\nTotal: 12.50');
    const decide = (json: object) => api.request('POST', `/v1/extractions/${id}/review`, { json });
    const [a, b] = await Promise.all([
      decide({
        decision: 'approve',
        corrections: { '/number': 'INV-9' },
        note: 'number was there',
      }),
      decide({ decision: 'reject' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const record = (await api.request('GET', `/v1/extractions/${id}`)).body.data;
    expect(record.review.status).toBe(winner.body.data.review.status);
    expect(record.result).toEqual(missingNumber);
    expect(record.review.reviewedBy).toMatch(/^key:/);

    // Whichever won, a fresh one is approved so the export has a case.
    model.behave({ output: missingNumber });
    const approvedId = await extract(api, reviewed, 'Invoice number: INV-10\nTotal: 12.50');
    const approved = await api.request('POST', `/v1/extractions/${approvedId}/review`, {
      json: { decision: 'approve', corrections: { '/number': 'INV-10', '/lines/0/amount': 12.5 } },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data.reviewedResult).toEqual({
      number: 'INV-10',
      total: 12.5,
      lines: [{ amount: 12.5 }],
    });
    expect(approved.body.data.result).toEqual(missingNumber);
    expect(
      (
        await api.request('POST', `/v1/extractions/${approvedId}/review`, {
          json: { decision: 'reject' },
        })
      ).status,
    ).toBe(409);

    const event = await waitFor(() =>
      received.find((e) => e.type === 'extraction.reviewed' && e.data.id === approvedId),
    );
    expect(event.data.review?.status).toBe('approved');

    const dataset = await api.request('GET', `/v1/schemas/${reviewed}/dataset?limit=100`);
    expect(dataset.status).toBe(200);
    const item = dataset.body.data.data.find((c: { case: string }) => c.case === approvedId);
    expect(item).toMatchObject({
      type: 'text',
      source: 'Invoice number: INV-10\nTotal: 12.50',
      expected: approved.body.data.reviewedResult,
      recorded: missingNumber,
    });
  });

  test('a correction becomes a test case: xt reviews export writes a data set xt eval reads and scores before and after review', async ({
    api,
    model,
  }) => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Exported', structure, review: { minConfidence: 0.5, sample: 1 } },
    });
    const schemaId = schema.body.data.id as string;
    const form = new FormData();
    form.append('schema_id', schemaId);
    form.append('type', 'text');
    form.append('source', new Blob(['Number: INV-77\nTotal: 40']), 'invoice.txt');
    model.behave({ output: { number: 'INV-7', total: 40, lines: [] } });
    const created = await api.request('POST', '/v1/extractions', { body: form });
    expect(created.status).toBe(200);
    const id = created.body.data.id as string;
    const approved = await api.request('POST', `/v1/extractions/${id}/review`, {
      json: { decision: 'approve', corrections: { '/number': 'INV-77' } },
    });
    expect(approved.status).toBe(200);

    const dir = await mkdtemp(path.join(os.tmpdir(), 'review-export-'));
    try {
      const env = { XT_BASE_URL: api.url, XT_API_KEY: api.keys.write };
      const exported = await xt(['reviews', 'export', '--schema', schemaId, '--out', dir], env);
      expect(exported.stderr).toContain('wrote 1 cases');
      expect(await readdir(path.join(dir, 'cases'))).toEqual([`${id}.txt`]);
      expect(await readFile(path.join(dir, 'cases', `${id}.txt`), 'utf8')).toBe(
        'Number: INV-77\nTotal: 40',
      );
      const expected = JSON.parse(await readFile(path.join(dir, 'expected', `${id}.json`), 'utf8'));
      expect(expected).toEqual({ number: 'INV-77', total: 40, lines: [] });

      // The eval run: the stand-in now answers what the reviewer said.
      model.behave({ output: expected });
      const report = path.join(dir, 'report.json');
      const run = await xt(['eval', '--dataset', dir, '--out', report], env);
      expect(run.code).toBe(0);
      const scored = JSON.parse(await readFile(report, 'utf8'));
      expect(scored.summary.cases).toBe(1);
      expect(scored.summary.accuracy).toBe(1);
      // Before review the model had the number wrong: 1 of 2 leaves (number, total).
      expect(scored.summary.recorded).toEqual({ cases: 1, leaves: 2, matched: 1, accuracy: 0.5 });
      expect(run.stdout).toContain('Before review');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** The `xt` binary from the SDK's sources, as `npm run eval` runs it, with only these settings. */
function xt(args: string[], env: Record<string, string>) {
  const clean = { ...process.env };
  for (const name of ['XT_BASE_URL', 'XT_API_KEY', 'DATA_DIR']) delete clean[name];
  const child = spawn(
    process.execPath,
    [...TS_NODE_ARGS, `${REPO_ROOT}/packages/sdk/src/bin/xt.ts`, ...args],
    {
      cwd: REPO_ROOT,
      env: { ...clean, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
