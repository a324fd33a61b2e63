/**
 * The batch interface against the model stand-in through the OpenAI SDK: a create whose answer
 * was lost is found again by its round, however many batches were created since (the list is
 * paged back to the round's opening, not only its newest page).
 */
import { OpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { batchProvider } from './provider.ts';

let standIn: ModelStandIn;
let provider: ReturnType<typeof batchProvider>;

beforeAll(async () => {
  standIn = await startModelStandIn({ port: 0 });
  standIn.batch.setDelay(Infinity);
  provider = batchProvider(new OpenAI({ apiKey: 'test', baseURL: standIn.url }));
});

afterAll(async () => {
  await standIn?.close();
});

const line = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hello' }] };

describe('batchProvider.find', () => {
  it('finds the round’s batch behind more than a page of newer ones', async () => {
    const opened = new Date();
    const fileId = await provider.upload('round-lost', { a: line });
    const lost = await provider.create(fileId, 'round-lost');
    // Other extractions' rounds, created while the lost answer's run was away.
    for (let i = 0; i < 130; i++) await provider.create(fileId, `round-${i}`);
    expect(await provider.find('round-lost', opened)).toBe(lost);
    expect(await provider.find('round-never-created', opened)).toBeUndefined();
  }, 60_000);
});

describe('batchProvider.discard', () => {
  it('deletes the round’s input and the batch’s output file, a file already gone included', async () => {
    const fileId = await provider.upload('round-read', { a: line });
    const batchId = await provider.create(fileId, 'round-read');
    standIn.batch.completeAll();
    expect(await provider.state(batchId)).toEqual({ kind: 'over', status: 'completed' });
    const outputId = standIn.batch.batches.get(batchId)!.output_file_id!;
    const from = standIn.batch.calls.length;

    // The stand-in keeps every file (it has no delete): each delete answers 404, as for a file
    // already deleted, which is no error.
    await provider.discard({ fileId, batchId });
    const deleted = standIn.batch.calls
      .slice(from)
      .filter((c) => c.method === 'DELETE')
      .map((c) => c.path);
    expect(deleted.sort()).toEqual([`/v1/files/${fileId}`, `/v1/files/${outputId}`].sort());
    await expect(provider.discard({ fileId: null, batchId: 'batch_gone' })).resolves.toBe(
      undefined,
    );
  });
});
