import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPool } from '@xt/testkit';
import { checkResponsesAgainstOpenApi, startTestApi, type TestApi } from '../../test/start-api.ts';

checkResponsesAgainstOpenApi();

const endpoints = [
  {
    name: 'local',
    kind: 'openai-compatible',
    baseUrl: 'http://user:pass@127.0.0.1:11434/v1',
    apiKey: 'local-secret-key',
    models: [{ id: 'llama3.1', providerModel: 'llama3.1:8b' }],
  },
  {
    name: 'cloud',
    kind: 'openai',
    apiKeyEnv: 'CLOUD_KEY',
    models: [{ id: 'gpt-4.1-mini', default: true }],
  },
];

let api: TestApi;
let schemaId: string;
beforeAll(async () => {
  api = await startTestApi({ MODEL_ENDPOINTS: JSON.stringify(endpoints) });
  const res = await api.request('POST', '/v1/schemas', {
    json: {
      name: 'Invoice',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    },
  });
  schemaId = res.body.data.id;
});
afterAll(() => api?.close());

describe('models', () => {
  it('lists the configured names with the default, never where they are served', async () => {
    const res = await api.request('GET', '/v1/models', { key: api.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: 'llama3.1', default: false, capabilities: null, probedAt: null },
      {
        id: 'gpt-4.1-mini',
        default: true,
        capabilities: expect.objectContaining({ structuredOutput: 'json_schema', images: true }),
        probedAt: null,
      },
    ]);
    for (const secret of ['11434', 'local-secret-key', 'pass', 'llama3.1:8b', 'cloud'])
      expect(res.text).not.toContain(secret);
  });

  it('needs a key, like every resource', async () => {
    expect((await api.request('GET', '/v1/models', { key: null })).status).toBe(401);
  });

  it('takes any configured name on create, and names the choices for any other', async () => {
    const unknown = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total 5', model: 'gpt-4.1' },
      headers: { prefer: 'respond-async' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      { field: 'model', message: 'model must be one of: llama3.1, gpt-4.1-mini' },
    ]);
    const local = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total 5', model: 'llama3.1' },
      headers: { prefer: 'respond-async' },
    });
    expect(local.status).toBe(202);
    const pool = openTestPool(api.database.url);
    const modelOf = async (id: string) =>
      (await pool.query<{ model: string }>('select model from extractions where id = $1', [id]))
        .rows[0]?.model;
    expect(await modelOf(local.body.data.id)).toBe('llama3.1');
    const byDefault = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total 6' },
      headers: { prefer: 'respond-async' },
    });
    expect(await modelOf(byDefault.body.data.id)).toBe('gpt-4.1-mini');
    await pool.end();
  });
});

describe('a bad MODEL_ENDPOINTS', () => {
  it('stops the API at start, naming the entry', async () => {
    await expect(
      startTestApi({ MODEL_ENDPOINTS: JSON.stringify([{ ...endpoints[0], baseUrl: 'nope' }]) }),
    ).rejects.toThrow(/MODEL_ENDPOINTS: endpoint "local": baseUrl/);
  });
});
