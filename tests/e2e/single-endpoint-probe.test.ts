/**
 * A new user's first step with a local model: OPENAI_BASE_URL pointed at a server that is not
 * OpenAI (here Ollama with its default 4,096-token window, keeping only the end of a longer
 * prompt without a word), nothing else configured. The service probes it, reads the window from
 * `/api/show`, and sends no call larger than it, so a long contract's middle fact is not lost.
 */
import { describe, expect } from 'vitest';
import { filler } from '../support/dialects.ts';
import { stackTest } from '../support/stack.ts';

const test = stackTest({
  model: {
    dialect: { server: 'ollama', contextTokens: 4_096, overflow: 'truncate' },
    defaultBehaviour: { oracle: true },
    models: ['gpt-4.1'],
  },
  // as a user would start it: the kind found from the address, so this server is probed
  worker: { MODEL_ENDPOINT_KIND: 'auto' },
  // The API reads the address only to know the server is not OpenAI's (it lists what the
  // workers found); it starts before the stand-in's address is known, so any other one does.
  api: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
});

describe('OPENAI_BASE_URL at a local server', () => {
  test('is probed, and a long document is read whole within its window', async ({ api, model }) => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: {
        name: 'Contract',
        structure: {
          type: 'object',
          properties: {
            party_a: { type: 'string' },
            effective_date: { type: 'string' },
            governing_law: { type: 'string' },
          },
        },
      },
    });
    const source = [
      'Party A: Northwind Traders',
      filler(30_000, 1),
      'Effective date: 2026-03-01',
      filler(30_000, 2),
      'Governing law: the laws of Ontario',
    ].join('\n');
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schema.body.data.id, type: 'text', source },
      headers: { prefer: 'wait=120' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.output).toEqual({
      party_a: 'Northwind Traders',
      effective_date: '2026-03-01',
      governing_law: 'the laws of Ontario',
    });
    expect(model.probes.length).toBeGreaterThan(0);
    expect(model.requests.length).toBeGreaterThan(1);
    for (const call of model.requests)
      expect(JSON.stringify(call.body).length / 4).toBeLessThan(4_096);
    // the API lists what the worker found
    const listed = await api.request('GET', '/v1/models');
    expect(listed.body.data[0]).toMatchObject({
      id: 'gpt-4.1',
      capabilities: { contextTokens: 4_096 },
      probedAt: expect.any(String),
    });
  });
});
