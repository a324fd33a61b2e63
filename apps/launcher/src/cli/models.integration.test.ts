import { execFile } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisLearnedLimits } from '@xt/model';
import {
  REPO_ROOT,
  startModelStandIn,
  testRedisUrl,
  TS_NODE_ARGS,
  uniquePrefix,
  type ModelStandIn,
} from '@xt/testkit';
import { flushPrefix } from '@xt/testkit/env';

let local: ModelStandIn;
let env: Record<string, string>;
beforeAll(async () => {
  local = await startModelStandIn({
    dialect: { server: 'ollama', contextTokens: 4_096, images: false },
    models: ['llama3.1:8b'],
  });
  env = {
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: uniquePrefix('models'),
    CLOUD_KEY: 'sk-cloud-secret-key',
    MODEL_ENDPOINTS: JSON.stringify([
      {
        name: 'local',
        kind: 'openai-compatible',
        baseUrl: local.url,
        apiKey: 'local-secret-key',
        models: [{ id: 'llama3.1', providerModel: 'llama3.1:8b', default: true }],
      },
      { name: 'cloud', kind: 'openai', apiKeyEnv: 'CLOUD_KEY', models: [{ id: 'gpt-4.1' }] },
    ]),
  };
});
afterAll(async () => {
  await local?.close();
  await flushPrefix(testRedisUrl(), `{${env.QUEUE_PREFIX}}`);
});

function models(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...TS_NODE_ARGS, 'apps/launcher/src/cli/models.ts', ...args],
      { cwd: REPO_ROOT, env: { ...process.env, ...env } },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run models', () => {
  it('lists, probes and lists again what every worker will use, never a key', async () => {
    const before = await models('list');
    expect(before.code).toBe(0);
    expect(before.stdout).toMatch(
      /llama3\.1 \[default\] {2}local \(openai-compatible, llama3\.1:8b\)\n {2}not probed yet/,
    );
    expect(before.stdout).toMatch(
      /gpt-4\.1 {2}cloud \(openai, gpt-4\.1\)\n {2}output: json_schema/,
    );

    const probed = await models('probe');
    expect(probed.code).toBe(0);
    expect(probed.stdout).toMatch(
      /llama3\.1: output: json_schema, images: no \(read as OCR text\), .*context: 4096/,
    );
    expect(probed.stdout).toMatch(/gpt-4\.1: openai speaks OpenAI's dialect; not probed/);
    expect(local.probes.length).toBeGreaterThan(0);

    const after = await models('list');
    expect(after.stdout).toMatch(
      /llama3\.1 \[default\].*\n {2}output: json_schema, images: no .*context: 4096.*probed 20\d\d-/,
    );
    expect(after.stdout).toContain(
      '\n  at once: learned from latency; no call has taught it yet\n',
    );
    expect(after.stdout).toContain('\n  at once: not limited (OpenAI is not learned)\n');

    // three calls, as a worker tells them: the first sets the baseline, each grows the limit
    const redis = new Redis(testRedisUrl());
    // the prefix as the settings give it: in braces, one Redis Cluster slot
    const prefix = `{${env.QUEUE_PREFIX}}`;
    const learned = redisLearnedLimits(redis, prefix, 60, { start: 1, min: 1, max: 8 });
    for (const inFlight of [1, 2, 2])
      await learned.learn('local', 'llama3.1:8b', {
        ms: 2_000,
        promptTokens: 0,
        completionTokens: 100,
        inFlight,
        round: 0,
      });
    redis.disconnect();
    const taught = await models('list');
    expect(taught.stdout).toContain(
      '\n  at once: 3 (learned from latency over 3 calls; 20.0 ms a token without a queue)\n',
    );

    for (const run of [before, probed, after, taught])
      for (const secret of ['local-secret-key', 'sk-cloud-secret-key'])
        expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it('names the models served when asked to probe another', async () => {
    const run = await models('probe', 'gpt-5');
    expect(run).toMatchObject({ code: 2 });
    expect(run.stderr).toContain('no model "gpt-5"; the models served are: llama3.1, gpt-4.1');
  });
});
