/**
 * Usage shows what failed extractions spent: their tokens are counted, as uncharged, beside the
 * charged tokens of completed ones.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, createDb, extractions, type DbHandle } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import { usagePerDay } from './usage.ts';

let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 2 });
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('usage per day', () => {
  it('counts the tokens of failed extractions as uncharged', async () => {
    const [account] = await handle.db
      .insert(accounts)
      .values({ name: `usage-${randomUUID()}` })
      .returning();
    const row = (
      status: 'completed' | 'failed',
      tokens: number,
    ): typeof extractions.$inferInsert => ({
      id: randomUUID(),
      accountId: account!.id,
      schemaId: randomUUID(),
      schemaName: 'S',
      schemaStructure: { type: 'object', properties: {} } as const,
      sourceType: 'text' as const,
      source: 'x',
      model: 'gpt-4.1',
      status,
      totalTokens: tokens,
      charged: status === 'completed',
    });
    await handle.db
      .insert(extractions)
      .values([row('completed', 1_000), row('failed', 300), row('failed', 200)]);
    const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const days = await usagePerDay(
      handle.db,
      account!.id,
      today,
      new Date(today.getTime() + 86_400_000),
    );
    expect(days).toEqual([
      {
        date: today.toISOString().slice(0, 10),
        extractions: 3,
        charged: 1,
        failed: 2,
        tokens: 1_500,
        chargedTokens: 1_000,
        unchargedTokens: 500,
      },
    ]);
  });
});
