import { checkSchemas } from '../http/limits/account-bounds.ts';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { validateReviewPolicy } from '@xt/contract';
import { HttpError, notFound, validationError } from '../http/errors/errors.ts';
import type { ListQuery } from '../http/listing/list-query.ts';
import { schemas, type Db, type SchemaRow } from '@xt/db';
import { listConditions, listPage, type ListColumns } from '../http/listing/list-page.ts';
import type { SchemaInput } from './body.ts';
import type { IdempotencyKeys, IdempotencyRequest } from '../idempotency/store.ts';

const COLUMNS: ListColumns = {
  accountId: schemas.accountId,
  createdAt: schemas.createdAt,
  id: schemas.id,
  searchOn: schemas.name,
};

/** Every query is scoped to the caller's account: other accounts' schemas do not exist. */
export class SchemaService {
  constructor(
    private readonly db: Db,
    private readonly keys: IdempotencyKeys,
    /** Schemas one account may hold (MAX_SCHEMAS_PER_ACCOUNT). */
    private readonly maxSchemas: number,
  ) {}

  /**
   * With an Idempotency-Key, the key is claimed in the same transaction as the row; a repeat of
   * the request answers with the schema the key created, as it is now (docs/idempotency.md).
   */
  async create(
    accountId: string,
    input: SchemaInput,
    idempotency?: IdempotencyRequest,
  ): Promise<{ row: SchemaRow; replayed: boolean }> {
    const id = randomUUID();
    const written = await this.db.transaction(async (tx) => {
      if (idempotency) {
        const claim = await this.keys.claim(tx, accountId, idempotency, 'schema', id);
        if (claim.kind === 'replay') return { created: false as const, id: claim.resourceId };
      }
      await checkSchemas(tx, accountId, this.maxSchemas);
      const [row] = await tx
        .insert(schemas)
        .values({
          id,
          accountId,
          name: input.name,
          description: input.description,
          structure: input.structure,
          review: input.review,
        })
        .returning();
      if (!row) throw new Error('insert returned no row');
      return { created: true as const, row };
    });
    if (written.created) return { row: written.row, replayed: false };
    const [row] = await this.db
      .select()
      .from(schemas)
      .where(and(eq(schemas.accountId, accountId), eq(schemas.id, written.id)));
    if (!row)
      throw new HttpError(
        404,
        'NOT_FOUND',
        'The schema this Idempotency-Key created has been deleted.',
      );
    return { row, replayed: true };
  }

  async get(accountId: string, id: string): Promise<SchemaRow> {
    const [row] = await this.db
      .select()
      .from(schemas)
      .where(and(eq(schemas.accountId, accountId), eq(schemas.id, id)));
    if (!row) throw notFound('Schema');
    return row;
  }

  list(accountId: string, q: ListQuery) {
    return listPage(this.db, schemas, COLUMNS, listConditions(COLUMNS, accountId, q), q);
  }

  /**
   * The review settings name fields of the structure, so the two are checked together as they
   * will be stored: a PATCH of either is checked against the other as it is now.
   */
  async update(accountId: string, id: string, patch: Partial<SchemaInput>): Promise<SchemaRow> {
    return this.db.transaction(async (tx) => {
      const where = and(eq(schemas.accountId, accountId), eq(schemas.id, id));
      const [current] = await tx
        .select({ structure: schemas.structure, review: schemas.review })
        .from(schemas)
        .where(where)
        .for('update');
      if (!current) throw notFound('Schema');
      const review = patch.review === undefined ? current.review : patch.review;
      if (review) {
        const { errors } = validateReviewPolicy(review, patch.structure ?? current.structure);
        if (errors.length > 0) throw validationError(errors);
      }
      const [row] = await tx
        .update(schemas)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(where)
        .returning();
      if (!row) throw notFound('Schema');
      return row;
    });
  }

  /** Extractions keep their own snapshot of the schema, so nothing else needs to change. */
  async delete(accountId: string, id: string): Promise<void> {
    const deleted = await this.db
      .delete(schemas)
      .where(and(eq(schemas.accountId, accountId), eq(schemas.id, id)))
      .returning({ id: schemas.id });
    if (deleted.length === 0) throw notFound('Schema');
  }
}
