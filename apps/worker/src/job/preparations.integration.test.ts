/**
 * The store of earlier preparations against real PostgreSQL (docs/reuse.md#preparations): one
 * account's entries never answer another's, and every bound holds: an entry too large is not
 * kept, an account past its bytes loses its oldest entries, nothing older than the retention is
 * read and the sweep deletes it, and deleting the extraction that stored an entry deletes it.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, createDb, extractions, preparedSources, type DbHandle } from '@xt/db';
import type { ContentId } from '@xt/sources';
import { removeExpiredPreparations } from '@xt/extractions';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import { jobPreparations, type PreparationSettings } from './preparations.ts';

const HOUR = 3_600_000;
const silent = pino({ level: 'silent' });

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

/** An account with one extraction of its own: the producer of what its store writes. */
async function jobOf(overrides: Partial<{ citationsRequested: boolean }> = {}) {
  const [account] = await handle.db
    .insert(accounts)
    .values({ name: `prep-${randomUUID()}` })
    .returning();
  const id = randomUUID();
  await handle.db.insert(extractions).values({
    id,
    accountId: account!.id,
    schemaId: randomUUID(),
    schemaName: 'Invoice',
    schemaStructure: { type: 'object' },
    sourceType: 'pdf',
    source: 'a.pdf',
    model: 'gpt-4.1',
    status: 'processing',
  });
  return {
    id,
    accountId: account!.id,
    model: 'gpt-4.1' as const,
    citationsRequested: overrides.citationsRequested ?? false,
  };
}

const settings = (over: Partial<PreparationSettings> = {}): PreparationSettings => ({
  retentionMs: 24 * HOUR,
  maxEntryBytes: 1000,
  maxAccountBytes: 2500,
  reading: { pdfMode: 'auto' },
  ...over,
});
const content = (n: number): ContentId => ({
  type: 'pdf',
  sha256: String(n).padStart(64, '0'),
  contentType: 'application/pdf',
});
const body = (n: number, size = 900) => `${n}`.padEnd(size, '.');

async function entries(accountId: string) {
  return handle.db
    .select({ size: preparedSources.size, createdAt: preparedSources.createdAt })
    .from(preparedSources)
    .where(eq(preparedSources.accountId, accountId));
}

describe('jobPreparations', () => {
  it('answers what the same account stored for the same content and options only', async () => {
    const job = await jobOf();
    const store = jobPreparations(handle.db, settings(), silent)(job)!;
    await store.write(content(1), body(1));
    expect(await store.read(content(1))).toBe(body(1));
    expect(await store.read(content(2))).toBeUndefined();
    const other = await jobOf();
    expect(await jobPreparations(handle.db, settings(), silent)(other)!.read(content(1))).toBe(
      undefined,
    );
    // Read with citations (OCR), or under other reading settings, it is other work.
    const cited = jobPreparations(
      handle.db,
      settings(),
      silent,
    )({
      ...job,
      citationsRequested: true,
    })!;
    expect(await cited.read(content(1))).toBeUndefined();
    const images = jobPreparations(handle.db, settings({ reading: { pdfMode: 'images' } }), silent);
    expect(await images(job)!.read(content(1))).toBeUndefined();
    // Read for a model that takes no images (scans as OCR text), it is other work too.
    const textOnly = { ...content(1), images: false as const };
    expect(await store.read(textOnly)).toBeUndefined();
    await store.write(textOnly, body(3));
    expect(await store.read(textOnly)).toBe(body(3));
    expect(await store.read(content(1))).toBe(body(1));
  });

  it('keeps no entry larger than the bound, and an account within its bytes, oldest first', async () => {
    const job = await jobOf();
    const store = jobPreparations(handle.db, settings(), silent)(job)!;
    await store.write(content(1), body(1, 1001));
    expect(await entries(job.accountId)).toEqual([]);
    for (const n of [1, 2, 3]) {
      await store.write(content(n), body(n));
      // Entries made in the same millisecond would tie; each is older than the next.
      await handle.db.execute(
        sql`update prepared_sources set created_at = created_at - ${`${10 - n} seconds`}::interval where account_id = ${job.accountId}`,
      );
    }
    // 3 × 900 > 2500: the oldest went.
    expect(await store.read(content(1))).toBeUndefined();
    expect(await store.read(content(2))).toBe(body(2));
    expect(await store.read(content(3))).toBe(body(3));
    expect((await entries(job.accountId)).reduce((n, e) => n + e.size, 0)).toBeLessThanOrEqual(
      2500,
    );
    expect(jobPreparations(handle.db, settings({ maxAccountBytes: 0 }), silent)(job)).toBe(
      undefined,
    );
  });

  it('reads nothing past retention, and the sweep deletes it', async () => {
    const job = await jobOf();
    const store = jobPreparations(handle.db, settings(), silent)(job)!;
    await store.write(content(1), body(1));
    await handle.db
      .update(preparedSources)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(preparedSources.accountId, job.accountId));
    expect(await store.read(content(1))).toBeUndefined();
    expect(await removeExpiredPreparations(handle.db, 24 * HOUR)).toBeGreaterThanOrEqual(1);
    expect(await entries(job.accountId)).toEqual([]);
  });

  it('goes with the extraction that stored it', async () => {
    const job = await jobOf();
    const store = jobPreparations(handle.db, settings(), silent)(job)!;
    await store.write(content(1), body(1));
    expect(await entries(job.accountId)).toHaveLength(1);
    await handle.db.delete(extractions).where(eq(extractions.id, job.id));
    expect(await entries(job.accountId)).toEqual([]);
  });
});
