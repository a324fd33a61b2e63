import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from './index.ts';

const schema = {
  type: 'object',
  properties: { total: { type: 'number' } },
  required: ['total'],
  additionalProperties: false,
};

const line = (customId: string) =>
  JSON.stringify({
    custom_id: customId,
    method: 'POST',
    url: '/v1/chat/completions',
    body: {
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: `Total: 12.50 (${customId})` }],
      response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema } },
    },
  });

let standIn: ModelStandIn;
let openai: OpenAI;

beforeAll(async () => {
  standIn = await startModelStandIn();
  openai = new OpenAI({ apiKey: 'k', baseURL: standIn.url, maxRetries: 0 });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.reset();
  standIn.batch.setDelay(0);
});

async function submit(ids: string[]) {
  const file = await openai.files.create({
    file: await toFile(Buffer.from(`${ids.map(line).join('\n')}\n`), 'round.jsonl'),
    purpose: 'batch',
  });
  return openai.batches.create({
    input_file_id: file.id,
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
    metadata: { round: 'r1' },
  });
}

describe('the stand-in’s Files and Batches interface', () => {
  it('answers each line of an uploaded file as a chat completion, by custom_id', async () => {
    const batch = await submit(['a', 'b']);
    const done = await openai.batches.retrieve(batch.id);
    expect(done.status).toBe('completed');
    const text = await (await openai.files.content(done.output_file_id!)).text();
    const out = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { custom_id: string; response: { status_code: number } });
    expect(out.map((o) => o.custom_id).sort()).toEqual(['a', 'b']);
    expect(out.every((o) => o.response.status_code === 200)).toBe(true);
    // Nothing reached chat completions directly; the lines are recorded apart.
    expect(standIn.requests).toHaveLength(0);
    expect(standIn.batch.lines.map((r) => r.text)).toEqual([
      'Total: 12.50 (a)',
      'Total: 12.50 (b)',
    ]);
    expect(standIn.batch.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/v1/files',
      '/v1/batches',
    ]);
  });

  it('holds a batch in progress until its delay has passed, and cancels it on request', async () => {
    standIn.batch.setDelay(Infinity);
    const batch = await submit(['c']);
    expect((await openai.batches.retrieve(batch.id)).status).toBe('in_progress');
    expect((await openai.batches.cancel(batch.id)).status).toBe('cancelled');
    expect((await openai.batches.retrieve(batch.id)).status).toBe('cancelled');
    expect(standIn.batch.lines).toHaveLength(0);
    const held = await submit(['d']);
    standIn.batch.completeAll();
    expect((await openai.batches.retrieve(held.id)).status).toBe('completed');
  });

  it('lists batches with their metadata, newest first', async () => {
    const batch = await submit(['e']);
    const list = await openai.batches.list();
    expect(list.data[0]).toMatchObject({ id: batch.id, metadata: { round: 'r1' } });
  });

  it('answers 404 when the provider has no batch interface', async () => {
    const bare = await startModelStandIn({ batch: { enabled: false } });
    try {
      const client = new OpenAI({ apiKey: 'k', baseURL: bare.url, maxRetries: 0 });
      await expect(
        client.files.create({ file: await toFile(Buffer.from('x'), 'x.jsonl'), purpose: 'batch' }),
      ).rejects.toMatchObject({ status: 404 });
    } finally {
      await bare.close();
    }
  });
});
