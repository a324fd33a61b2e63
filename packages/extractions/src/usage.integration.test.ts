/**
 * Usage shows what failed extractions spent: their tokens are counted, as uncharged, beside the
 * charged tokens of completed ones; and what the tokens cost, per day and per schema, with what
 * reuse saved (docs/cost.md).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, createDb, extractions, type DbHandle } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import { usageBySchema, usagePerDay } from './usage.ts';

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
        costUsd: 0,
        reused: 0,
        savedUsd: 0,
      },
    ]);
  });

  it('shows cost per day and per schema, and what reuse saved', async () => {
    const [account] = await handle.db
      .insert(accounts)
      .values({ name: `usage-${randomUUID()}` })
      .returning();
    const invoices = randomUUID();
    const receipts = randomUUID();
    const original = randomUUID();
    const row = (
      schemaId: string,
      over: Partial<typeof extractions.$inferInsert>,
    ): typeof extractions.$inferInsert => ({
      id: randomUUID(),
      accountId: account!.id,
      schemaId,
      schemaName: schemaId === invoices ? 'Invoices' : 'Receipts',
      schemaStructure: { type: 'object', properties: {} } as const,
      sourceType: 'text' as const,
      source: 'x',
      model: 'gpt-4.1',
      status: 'completed',
      charged: true,
      ...over,
    });
    await handle.db
      .insert(extractions)
      .values([
        row(invoices, { id: original, totalTokens: 1_000, costUsd: 0.1 }),
        row(invoices, { totalTokens: 2_000, costUsd: 0.2 }),
        row(receipts, { totalTokens: 500, costUsd: 0.05 }),
      ]);
    // A reused answer: no tokens, no cost, the original's cost saved.
    await handle.db
      .insert(extractions)
      .values(row(invoices, { charged: false, reusedFrom: original, savedUsd: 0.1 }));
    const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const tomorrow = new Date(today.getTime() + 86_400_000);
    const [day] = await usagePerDay(handle.db, account!.id, today, tomorrow);
    expect(day).toMatchObject({ extractions: 4, costUsd: 0.35, reused: 1, savedUsd: 0.1 });
    expect(await usageBySchema(handle.db, account!.id, today, tomorrow)).toEqual([
      {
        schemaId: invoices,
        schemaName: 'Invoices',
        extractions: 3,
        tokens: 3_000,
        costUsd: 0.3,
        reused: 1,
        savedUsd: 0.1,
      },
      {
        schemaId: receipts,
        schemaName: 'Receipts',
        extractions: 1,
        tokens: 500,
        costUsd: 0.05,
        reused: 0,
        savedUsd: 0,
      },
    ]);
  });
});
