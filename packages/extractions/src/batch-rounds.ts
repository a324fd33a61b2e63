import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { extractions, isUniqueViolation, modelBatches, type Db, type ModelBatchRow } from '@xt/db';

export type Round = ModelBatchRow;

/** How long one run may take to send a round before another may (its upload and create). */
const LEASE = sql`now() + interval '5 minutes'`;

/**
 * The batch rounds of one extraction (docs/batch.md), each written as its provider step
 * happens: the caller never holds a provider id it has not recorded first. The worker's batch
 * runner and sweep drive the provider; `model_batches` is read and written only here.
 */
export function batchRounds(db: Db) {
  return {
    list: (extractionId: string): Promise<Round[]> =>
      db
        .select()
        .from(modelBatches)
        .where(eq(modelBatches.extractionId, extractionId))
        .orderBy(asc(modelBatches.createdAt)),

    /**
     * A new round with what it will send, before anything is sent, leased to this run; null when
     * another run of the extraction has a round open already.
     */
    async open(
      extractionId: string,
      requests: Record<string, unknown>,
      /** standard calls' answers the run got meanwhile (replay.ts), kept with the round */
      answered: Record<string, unknown> = {},
    ): Promise<Round | null> {
      const answers = Object.keys(answered).length > 0 ? answered : null;
      try {
        const [row] = await db
          .insert(modelBatches)
          .values({ id: randomUUID(), extractionId, requests, answers, leaseUntil: LEASE })
          .returning();
        return row ?? null;
      } catch (err) {
        if (isUniqueViolation(err, 'model_batches_one_open_idx')) return null;
        throw err;
      }
    },

    /** Takes an unsent round for this run, unless another run's lease on it still holds. */
    async take(id: string): Promise<boolean> {
      const rows = await db
        .update(modelBatches)
        .set({ leaseUntil: LEASE, updatedAt: sql`now()` })
        .where(
          and(
            eq(modelBatches.id, id),
            isNull(modelBatches.batchId),
            or(isNull(modelBatches.leaseUntil), lt(modelBatches.leaseUntil, sql`now()`)),
          ),
        )
        .returning({ id: modelBatches.id });
      return rows.length > 0;
    },

    uploaded: (id: string, fileId: string) =>
      db
        .update(modelBatches)
        .set({ fileId, updatedAt: sql`now()` })
        .where(eq(modelBatches.id, id)),

    submitted: (id: string, batchId: string) =>
      db
        .update(modelBatches)
        .set({ batchId, status: 'submitted', leaseUntil: null, updatedAt: sql`now()` })
        .where(eq(modelBatches.id, id)),

    /** The batch's answers, added to the standard ones the round was opened with. */
    done: (id: string, answers: Record<string, unknown>) =>
      db
        .update(modelBatches)
        .set({
          answers: sql`coalesce(${modelBatches.answers}, '{}'::jsonb) || ${JSON.stringify(answers)}::jsonb`,
          status: 'done',
          updatedAt: sql`now()`,
        })
        .where(eq(modelBatches.id, id)),

    /**
     * The round's files are deleted at the provider. A round whose answers were read needs its
     * file id no more, so clearing it is the mark: the sweep deletes the files of a done round
     * that still has one (a delete that failed, a batch still cancelling when it was read).
     */
    discarded: (id: string) =>
      db
        .update(modelBatches)
        .set({ fileId: null, updatedAt: sql`now()` })
        .where(eq(modelBatches.id, id)),

    remove: (id: string) => db.delete(modelBatches).where(eq(modelBatches.id, id)),

    /**
     * Rounds nobody needs any more: their extraction is gone (deleted) or final. Those still at
     * the provider are cancelled by the caller before they are removed. A round a run is still
     * sending (unrecorded batch id, lease held) is left until that run records what it sent:
     * removed earlier, a batch created a moment later would be known to nobody and never
     * cancelled.
     */
    finished: (limit: number): Promise<Round[]> =>
      db
        .select({ round: modelBatches })
        .from(modelBatches)
        .leftJoin(extractions, eq(extractions.id, modelBatches.extractionId))
        .where(
          and(
            or(isNull(extractions.id), inArray(extractions.status, ['completed', 'failed'])),
            or(
              sql`${modelBatches.batchId} is not null`,
              isNull(modelBatches.leaseUntil),
              lt(modelBatches.leaseUntil, sql`now()`),
            ),
          ),
        )
        .limit(limit)
        .then((rows) => rows.map((r) => r.round)),
  };
}

export type BatchRounds = ReturnType<typeof batchRounds>;
