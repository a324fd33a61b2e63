/**
 * A worker started without a model provider (no OPENAI_API_KEY, no OPENAI_BASE_URL, written
 * empty as docker-compose does) fails extractions at once, saying what to set, rather than
 * retrying a provider it can never reach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppProcess } from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  startTestWorker,
  type TestApi,
} from '@xt/api/testing';

checkResponsesAgainstOpenApi();

let api: TestApi;
let worker: AppProcess;

beforeAll(async () => {
  api = await startTestApi();
  worker = await startTestWorker(api, '', { OPENAI_API_KEY: '', JOB_ATTEMPTS: '3' });
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

describe('a worker with no model provider', () => {
  it('fails the extraction at once with MODEL_UNAVAILABLE and the setting to fix', async () => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Any', structure: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schema.body.data.id, type: 'text', source: 'hello' },
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'MODEL_UNAVAILABLE', extractionId: expect.any(String) });
    expect(res.body.message).toContain('OPENAI_API_KEY');
    const record = await api.request('GET', `/v1/extractions/${res.body.extractionId}`);
    expect(record.body.data).toMatchObject({ status: 'failed', charged: false, totalTokens: 0 });
  });
});
