/**
 * Batch rounds against real PostgreSQL: the standard answers a round is opened with (lines the
 * provider failed, answered by standard calls) stay beside the batch's answers once it is done.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import { batchRounds } from './rounds.ts';

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
