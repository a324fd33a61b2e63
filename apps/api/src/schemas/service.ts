import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { escapeLike, notFound, offsetFor, paginationMeta, type ListQuery } from '@xt/contract';
import { schemas, type Db, type SchemaRow } from '@xt/db';
import type { SchemaInput } from './body.ts';

/** Every query is scoped to the caller's account: other accounts' schemas do not exist. */
export class SchemaService {
  constructor(private readonly db: Db) {}

  async create(accountId: string, input: SchemaInput): Promise<SchemaRow> {
    const [row] = await this.db
      .insert(schemas)
      .values({
        accountId,
        name: input.name,
        description: input.description,
        structure: input.structure,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async get(accountId: string, id: string): Promise<SchemaRow> {
    const [row] = await this.db
      .select()
      .from(schemas)
      .where(and(eq(schemas.accountId, accountId), eq(schemas.id, id)));
    if (!row) throw notFound('Schema');
    return row;
  }

  async list(accountId: string, q: ListQuery) {
    const conditions: (SQL | undefined)[] = [eq(schemas.accountId, accountId)];
    if (q.search)
      conditions.push(sql`${schemas.name} ilike ${`%${escapeLike(q.search)}%`} escape '\\'`);
    if (q.startDate) conditions.push(gte(schemas.createdAt, q.startDate));
    if (q.endDateExclusive) conditions.push(lt(schemas.createdAt, q.endDateExclusive));
    const where = and(...conditions);
    const [totalRow] = await this.db.select({ n: count() }).from(schemas).where(where);
    const total = totalRow?.n ?? 0;
    const rows = await this.db
      .select()
      .from(schemas)
      .where(where)
      .orderBy(desc(schemas.createdAt), desc(schemas.id))
      .limit(q.limit)
      .offset(offsetFor(q.page, q.limit));
    return { rows, meta: paginationMeta(total, q.page, q.limit) };
  }

  async update(accountId: string, id: string, patch: Partial<SchemaInput>): Promise<SchemaRow> {
    const [row] = await this.db
      .update(schemas)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(and(eq(schemas.accountId, accountId), eq(schemas.id, id)))
      .returning();
    if (!row) throw notFound('Schema');
    return row;
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
