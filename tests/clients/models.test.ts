/**
 * Which models the service serves, as the SDK (`client.models.list()`) and the command line
 * (`xt models`) tell it, against an API and a worker configured with two models of their own
 * (MODEL_ENDPOINTS): the names are the operator's, not the default GPT-4.1 pair.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { XtClient, type Model } from '@xt/sdk';
import { REPO_ROOT, TS_NODE_ARGS } from '@xt/testkit';
import { startDialects } from '../support/dialects.ts';
import { stackTest } from '../support/stack.ts';

const dialects = await startDialects({
  'local-llama': { server: 'llamacpp', images: false, contextTokens: 8_192 },
  'vision-large': { server: 'vllm' },
});
const endpoints = JSON.stringify(
  (JSON.parse(dialects.endpoints) as { models: { id: string; default?: boolean }[] }[]).map(
    // The second is the default, so the default is seen to come from the configuration.
    (e) => ({ ...e, models: e.models.map((m) => ({ ...m, default: m.id === 'vision-large' })) }),
  ),
);
const test = stackTest({
  api: { MODEL_ENDPOINTS: endpoints },
  worker: { MODEL_ENDPOINTS: endpoints },
});
test.afterAll(() => dialects.close());

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-models-test-'));
});
test.afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function runXt(args: string[], env: Record<string, string>) {
  const base = { ...process.env };
  for (const name of ['XT_BASE_URL', 'XT_API_KEY', 'DATA_DIR']) delete base[name];
  const child = spawn(
    process.execPath,
    [...TS_NODE_ARGS, `${REPO_ROOT}/packages/sdk/src/bin/xt.ts`, ...args],
    { cwd: dir, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
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

describe('the models the service serves', () => {
  test('the SDK lists the configured models, and what a probe learned of one', async ({ api }) => {
    const client = new XtClient({ baseUrl: api.url, apiKey: api.keys.read });
    const before: Model[] = await client.models.list();
    expect(before).toEqual([
      { id: 'local-llama', default: false, capabilities: null, probedAt: null },
      { id: 'vision-large', default: true, capabilities: null, probedAt: null },
    ]);

    // The first extraction on a model has the worker probe it; the listing then says so.
    const writer = new XtClient({ baseUrl: api.url, apiKey: api.keys.write });
    const schema = await writer.schemas.create({
      name: 'Models invoice',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    });
    await writer.extract(
      { schemaId: schema.id, type: 'text', source: 'Total: 12.50', model: 'local-llama' },
      { timeoutMs: 60_000 },
    );
    const local = (await client.models.list()).find((m) => m.id === 'local-llama');
    expect(local?.capabilities).toMatchObject({ images: false, contextTokens: 8_192 });
    expect(Date.parse(local?.probedAt ?? '')).toBeGreaterThan(0);
  });

  test('`xt models` prints them as a table, and one JSON record a line with --json', async ({
    api,
  }) => {
    const env = { XT_BASE_URL: api.url, XT_API_KEY: api.keys.read };
    const table = await runXt(['models'], env);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    const [heading, ...rows] = table.stdout.trimEnd().split('\n');
    expect(heading).toMatch(/^MODEL\s+DEFAULT\s+OUTPUT\s+IMAGES\s+CONTEXT\s+MAX OUTPUT\s+PROBED$/);
    expect(rows.map((r) => r.split(/\s{2,}/)[0])).toEqual(['local-llama', 'vision-large']);
    expect(rows[1]).toMatch(/^vision-large\s+yes\s/);

    const json = await runXt(['models', '--json'], env);
    expect(json.code).toBe(0);
    const records = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Model);
    expect(records).toEqual(
      await new XtClient({ baseUrl: api.url, apiKey: api.keys.read }).models.list(),
    );
  });
});
