import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extract } from '../extract.ts';
import { modelClients } from './clients.ts';
import { modelRegistry } from './registry.ts';

/*
 * An Azure OpenAI endpoint through the `openai` package's own Azure client: the deployment in
 * the path, the api-version in the query, the key in `api-key`. The server here answers as
 * Azure does for a deployment; the model stand-in speaks only OpenAI's paths.
 */
let seen: { url: string; headers: IncomingMessage['headers']; body: { model?: string } }[] = [];
let baseUrl = '';
const server = createServer((req, res) => {
  let text = '';
  req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  req.on('end', () => {
    seen.push({
      url: req.url ?? '',
      headers: req.headers,
      body: JSON.parse(text) as { model?: string },
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-azure',
        object: 'chat.completion',
        created: 0,
        model: 'gpt-4.1',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: '{"total":5}' },
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
      }),
    );
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  seen = [];
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('an azure endpoint', () => {
  it('calls the deployment named for the model, with its api-version and key', async () => {
    const { registry } = modelRegistry(
      [
        {
          name: 'azure',
          kind: 'azure',
          baseUrl,
          apiVersion: '2024-10-21',
          apiKeyEnv: 'AZURE_KEY',
          models: [{ id: 'gpt-4.1', providerModel: 'acme-gpt41' }],
        },
      ],
      { apiKey: '', baseURL: undefined, modelMap: {} },
      { AZURE_KEY: 'azure-secret' },
    );
    const clients = modelClients(registry, { timeoutMs: 5_000, maxRetries: 0 });
    const result = await extract({
      client: clients.forModel('gpt-4.1')!,
      model: 'gpt-4.1',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
      source: { parts: [{ kind: 'text', text: 'Total 5' }] },
    });
    expect(result.output).toEqual({ total: 5 });
    const [call] = seen;
    expect(call?.url).toBe(
      '/openai/deployments/acme-gpt41/chat/completions?api-version=2024-10-21',
    );
    expect(call?.headers['api-key']).toBe('azure-secret');
  });
});
