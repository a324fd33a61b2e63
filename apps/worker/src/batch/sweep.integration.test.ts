/**
 * The batch sweep against real PostgreSQL, with a provider that records what it is asked: the
 * batch of a deleted extraction is cancelled and its files deleted, also when the delete came
 * while a run was still sending the round (the batch created, its id not yet recorded), and when
 * the run that uploaded the round died before recording the batch its create made.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, modelBatches, type DbHandle } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import type { BatchProvider } from './provider.ts';
import { batchRounds, type BatchRounds } from '@xt/extractions';
import { sweepBatches } from './sweep.ts';

let database: TestDatabase;
let handle: DbHandle;
let rounds: BatchRounds;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 2, connectTimeoutMs: 60_000 });
  rounds = batchRounds(handle.db);
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

/**
 * A provider whose batches are made by `create` and found again by their round; a cancel ends a
 * batch at once unless `cancelling` says it takes a while, as OpenAI's may.
 */
function provider() {
  const byRound = new Map<string, string>();
  const statuses = new Map<string, string>();
  const cancelled: string[] = [];
  const discarded: { fileId: string | null; batchId: string | null }[] = [];
  let cancelTo = 'cancelled';
  const fake = {
    create: (_fileId: string, roundId: string) => {
      const id = `batch_${randomUUID()}`;
      byRound.set(roundId, id);
      statuses.set(id, 'in_progress');
      return Promise.resolve(id);
    },
    find: (roundId: string) => Promise.resolve(byRound.get(roundId)),
    state: (batchId: string) => {
      const status = statuses.get(batchId) ?? 'in_progress';
      const over = ['completed', 'failed', 'expired', 'cancelled'].includes(status);
      return Promise.resolve({ kind: over ? 'over' : 'working', status });
    },
    cancel: (batchId: string) => {
      cancelled.push(batchId);
      statuses.set(batchId, cancelTo);
      return Promise.resolve();
    },
    discard: (round: { fileId: string | null; batchId: string | null }) => {
      discarded.push(round);
      return Promise.resolve();
    },
  };
  return {
    fake,
    cancelled,
    discarded,
    statuses,
    cancelling: () => (cancelTo = 'cancelling'),
    provider: fake as unknown as BatchProvider,
  };
}

const logger = pino({ level: 'silent' });
// No extraction row: the extraction was deleted (rounds name it without a foreign key).
const deletedExtraction = () => randomUUID();
const roundsOf = (extractionId: string) => rounds.list(extractionId);

describe('the batch sweep', () => {
  it('cancels a batch whose id a run records after the delete, not before', async () => {
    const p = provider();
    const extractionId = deletedExtraction();
    const round = (await rounds.open(extractionId, { a: {} }))!;
    await rounds.uploaded(round.id, 'file-1');
    const batchId = await p.fake.create('file-1', round.id);

    // The run holds its lease and has not recorded the batch yet: the round stays.
    await sweepBatches({ rounds, provider: p.provider, logger });
    expect(await roundsOf(extractionId)).toHaveLength(1);
    expect(p.cancelled).toEqual([]);

    await rounds.submitted(round.id, batchId);
    await sweepBatches({ rounds, provider: p.provider, logger });
    expect(p.cancelled).toEqual([batchId]);
    expect(p.discarded).toEqual([{ fileId: 'file-1', batchId }]);
    expect(await roundsOf(extractionId)).toHaveLength(0);
  });

  it('finds and cancels the batch of a run that died after its create, before recording it', async () => {
    const p = provider();
    const extractionId = deletedExtraction();
    const round = (await rounds.open(extractionId, { a: {} }))!;
    await rounds.uploaded(round.id, 'file-2');
    const batchId = await p.fake.create('file-2', round.id);
    // The dead run's lease lapses.
    await handle.db
      .update(modelBatches)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(modelBatches.id, round.id));

    await sweepBatches({ rounds, provider: p.provider, logger });
    expect(p.cancelled).toEqual([batchId]);
    expect(p.discarded).toEqual([{ fileId: 'file-2', batchId }]);
    expect(await roundsOf(extractionId)).toHaveLength(0);
  });

  it('deletes the files of a batch still cancelling once its cancel is over', async () => {
    const p = provider();
    p.cancelling();
    const extractionId = deletedExtraction();
    const round = (await rounds.open(extractionId, { a: {} }))!;
    await rounds.uploaded(round.id, 'file-3');
    const batchId = await p.fake.create('file-3', round.id);
    await rounds.submitted(round.id, batchId);

    await sweepBatches({ rounds, provider: p.provider, logger });
    await sweepBatches({ rounds, provider: p.provider, logger });
    // Cancelled once; its output file is not written yet, so nothing is deleted yet.
    expect(p.cancelled).toEqual([batchId]);
    expect(p.discarded).toEqual([]);
    expect(await roundsOf(extractionId)).toHaveLength(1);

    p.statuses.set(batchId, 'cancelled');
    await sweepBatches({ rounds, provider: p.provider, logger });
    expect(p.discarded).toEqual([{ fileId: 'file-3', batchId }]);
    expect(await roundsOf(extractionId)).toHaveLength(0);
  });

  it('deletes the uploaded file of a round whose batch was never made', async () => {
    const p = provider();
    const extractionId = deletedExtraction();
    const round = (await rounds.open(extractionId, { a: {} }))!;
    await rounds.uploaded(round.id, 'file-4');
    await handle.db
      .update(modelBatches)
      .set({ leaseUntil: null })
      .where(eq(modelBatches.id, round.id));

    await sweepBatches({ rounds, provider: p.provider, logger });
    expect(p.cancelled).toEqual([]);
    expect(p.discarded).toEqual([{ fileId: 'file-4', batchId: null }]);
    expect(await roundsOf(extractionId)).toHaveLength(0);
  });

  it('deletes the files of a read round left with them, once its cancel is over', async () => {
    const p = provider();
    p.cancelling();
    const extractionId = deletedExtraction();
    const round = (await rounds.open(extractionId, { a: {} }))!;
    await rounds.uploaded(round.id, 'file-5');
    const batchId = await p.fake.create('file-5', round.id);
    await rounds.submitted(round.id, batchId);
    // Read at the window's end, its batch cancelled and still cancelling: its files stay.
    await p.fake.cancel(batchId);
    await rounds.done(round.id, {});

    await sweepBatches({ rounds, provider: p.provider, logger });
    expect(p.discarded).toEqual([]);
    expect(await roundsOf(extractionId)).toHaveLength(1);

    p.statuses.set(batchId, 'cancelled');
    await sweepBatches({ rounds, provider: p.provider, logger });
    expect(p.cancelled).toEqual([batchId]);
    expect(p.discarded).toEqual([{ fileId: 'file-5', batchId }]);
    expect(await roundsOf(extractionId)).toHaveLength(0);
  });

  it('removes a read round whose files were deleted when it was read without asking again', async () => {
    const p = provider();
    const extractionId = deletedExtraction();
    const round = (await rounds.open(extractionId, { a: {} }))!;
    await rounds.uploaded(round.id, 'file-6');
    const batchId = await p.fake.create('file-6', round.id);
    await rounds.submitted(round.id, batchId);
    await rounds.done(round.id, {});
    await rounds.discarded(round.id);

    await sweepBatches({ rounds, provider: p.provider, logger });
    expect(p.discarded).toEqual([]);
    expect(await roundsOf(extractionId)).toHaveLength(0);
  });

  it('removes a round that never reached the provider without asking it', async () => {
    const p = provider();
    const extractionId = deletedExtraction();
    const round = (await rounds.open(extractionId, { a: {} }))!;
    await handle.db
      .update(modelBatches)
      .set({ leaseUntil: null })
      .where(eq(modelBatches.id, round.id));

    await sweepBatches({ rounds, provider: p.provider, logger });
    expect(p.cancelled).toEqual([]);
    expect(p.discarded).toEqual([]);
    expect(await roundsOf(extractionId)).toHaveLength(0);
  });
});
