import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { extractions, preparedPerDb, schemas, type Db } from '@xt/db';

/*
 * The reuse look-up (docs/reuse.md): the account's newest completed original answer with the
 * key, younger than the asked age, whose schema structure is the same text. One probe of
 * extractions_reuse_idx; the structure is compared on the few rows the key matches.
 */

const e = extractions;
const younger = sql`${e.finishedAt} > now() - make_interval(secs => ${sql.placeholder('maxAge')})`;
const withKey = and(
  eq(e.accountId, sql.placeholder('accountId')),
  eq(e.reuseKey, sql.placeholder('key')),
  eq(e.status, 'completed'),
  isNull(e.reusedFrom),
  younger,
);

/** At create: compared with the schema the request names (the snapshot the row will take). */
const forSchema = preparedPerDb('reuse_for_schema', (db, name) =>
  db
    .select({ id: e.id })
    .from(e)
    .where(
      and(
        withKey,
        eq(
          sql`${e.schemaStructure}::text`,
          sql`(select ${schemas.structure}::text from ${schemas} where ${schemas.accountId} = ${sql.placeholder('accountId')} and ${schemas.id} = ${sql.placeholder('schemaId')})`,
        ),
      ),
    )
    .orderBy(desc(e.finishedAt))
    .limit(1)
    .prepare(name),
);

/** At create, for a structure no schema holds (a schema suggestion's): compared as sent. */
const forStructure = preparedPerDb('reuse_for_structure', (db, name) =>
  db
    .select({ id: e.id })
    .from(e)
    .where(and(withKey, eq(sql`${e.schemaStructure}::text`, sql.placeholder('structure'))))
    .orderBy(desc(e.finishedAt))
    .limit(1)
    .prepare(name),
);

const self = alias(extractions, 'self');

/** In the worker: compared with the extraction's own snapshot; never itself. */
const forExtraction = preparedPerDb('reuse_for_extraction', (db, name) =>
  db
    .select({ id: e.id })
    .from(e)
    .innerJoin(self, eq(self.id, sql.placeholder('selfId')))
    .where(
      and(
        withKey,
        ne(e.id, self.id),
        eq(sql`${e.schemaStructure}::text`, sql`${self.schemaStructure}::text`),
      ),
    )
    .orderBy(desc(e.finishedAt))
    .limit(1)
    .prepare(name),
);

export interface ReuseLookup {
  accountId: string;
  key: Buffer;
  maxAgeSeconds: number;
}

/** The id of the answer a create of `schemaId` may reuse, if any. */
export async function findReusableForSchema(
  db: Db,
  lookup: ReuseLookup & { schemaId: string },
): Promise<string | undefined> {
  const [hit] = await forSchema(db).execute({
    accountId: lookup.accountId,
    key: lookup.key,
    maxAge: lookup.maxAgeSeconds,
    schemaId: lookup.schemaId,
  });
  return hit?.id;
}

/**
 * The id of the answer a create with an unsaved structure may reuse, if any. The json column
 * keeps the text it was written as, JSON.stringify's, so the same structure is the same text.
 */
export async function findReusableForStructure(
  db: Db,
  lookup: ReuseLookup & { structure: unknown },
): Promise<string | undefined> {
  const [hit] = await forStructure(db).execute({
    accountId: lookup.accountId,
    key: lookup.key,
    maxAge: lookup.maxAgeSeconds,
    structure: JSON.stringify(lookup.structure),
  });
  return hit?.id;
}

/** The id of the answer extraction `extractionId` may reuse, if any. */
export async function findReusableForExtraction(
  db: Db,
  lookup: ReuseLookup & { extractionId: string },
): Promise<string | undefined> {
  const [hit] = await forExtraction(db).execute({
    accountId: lookup.accountId,
    key: lookup.key,
    maxAge: lookup.maxAgeSeconds,
    selfId: lookup.extractionId,
  });
  return hit?.id;
}
