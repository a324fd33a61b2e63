/**
 * Batch rounds against real PostgreSQL: the standard answers a round is opened with (lines the
 * provider failed, answered by standard calls) stay beside the batch's answers once it is done.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import { batchRounds } from './batch-rounds.ts';

let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 2, connectTimeoutMs: 60_000 });
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

it('keeps the standard answers a round was opened with beside the batch’s', async () => {
  const rounds = batchRounds(handle.db);
  const extractionId = randomUUID();
  const standard = { standard: { choices: [{ message: { content: '{}' } }] } };
  const round = (await rounds.open(extractionId, { next: {} }, { failed: standard }))!;
  expect(round.answers).toEqual({ failed: standard });
  await rounds.submitted(round.id, 'batch_1');
  await rounds.done(round.id, { next: { choices: [] } });
  const [done] = await rounds.list(extractionId);
  expect(done).toMatchObject({
    status: 'done',
    answers: { failed: standard, next: { choices: [] } },
  });
});

it('keeps each request body as it was built, its keys in order', async () => {
  const rounds = batchRounds(handle.db);
  const extractionId = randomUUID();
  // A structured output's properties are answered in this order; jsonb would sort them by length.
  const body = {
    model: 'm',
    response_format: { schema: { properties: { invoice_number: {}, total: {}, id: {} } } },
  };
  const round = (await rounds.open(extractionId, { line: body }))!;
  const [stored] = await rounds.list(extractionId);
  for (const got of [round, stored!]) {
    expect(JSON.stringify(got.requests)).toBe(JSON.stringify({ line: body }));
  }
});
