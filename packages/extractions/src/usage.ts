import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { UsageBySchema, UsageDay } from '@xt/contract';
import { extractions, type Db } from '@xt/db';

/*
 * An account's usage over a range of UTC days (the dashboard's usage page, docs/cost.md),
 * summed from its extraction rows.
 */

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The instant one whole UTC day after `d`. */
function nextUtcDay(d: Date): Date {
  const next = new Date(d.getTime());
  next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/**
 * Extractions per UTC day for one account: how many were made, charged (completed) and failed,
 * and the tokens they used, charged and not (a failed extraction's tokens are spent all the
 * same), what those cost, and how many were reused and what reuse and batch saved. Every day of the range is present, zeros included, so a chart has
 * no gaps to guess about.
 */
export async function usagePerDay(
  db: Db,
  accountId: string,
  from: Date,
  toExclusive: Date,
): Promise<UsageDay[]> {
  const bucket = sql<string>`to_char(${extractions.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      date: bucket,
      extractions: sql<number>`count(*)::int`,
      charged: sql<number>`(count(*) filter (where ${extractions.charged}))::int`,
      failed: sql<number>`(count(*) filter (where ${extractions.status} = 'failed'))::int`,
      tokens: sql<number>`coalesce(sum(${extractions.totalTokens}), 0)::float8`,
      chargedTokens: sql<number>`coalesce(sum(${extractions.totalTokens}) filter (where ${extractions.charged}), 0)::float8`,
      ...money,
    })
    .from(extractions)
    .where(inRange(accountId, from, toExclusive))
    .groupBy(bucket);
  const byDate = new Map(rows.map((r) => [r.date, r]));
  const days: UsageDay[] = [];
  for (let d = from; d < toExclusive; d = nextUtcDay(d)) {
    const r = byDate.get(day(d));
    days.push({
      date: day(d),
      extractions: r?.extractions ?? 0,
      charged: r?.charged ?? 0,
      failed: r?.failed ?? 0,
      tokens: r?.tokens ?? 0,
      chargedTokens: r?.chargedTokens ?? 0,
      unchargedTokens: (r?.tokens ?? 0) - (r?.chargedTokens ?? 0),
      costUsd: cents(r?.costUsd ?? 0),
      reused: r?.reused ?? 0,
      savedUsd: cents(r?.savedUsd ?? 0),
    });
  }
  return days;
}

/** Cost, reuse and savings of a group of extractions (docs/cost.md). */
const money = {
  costUsd: sql<number>`coalesce(sum(${extractions.costUsd}), 0)::float8`,
  reused: sql<number>`(count(*) filter (where ${extractions.reusedFrom} is not null))::int`,
  savedUsd: sql<number>`coalesce(sum(${extractions.savedUsd}), 0)::float8`,
};

const inRange = (accountId: string, from: Date, toExclusive: Date) =>
  and(
    eq(extractions.accountId, accountId),
    gte(extractions.createdAt, from),
    lt(extractions.createdAt, toExclusive),
  );

/** Sums of float prices carry noise far below a cent's fraction: kept to 10⁻⁸ USD. */
const cents = (usd: number) => Math.round(usd * 1e8) / 1e8;

/** What the usage page calls the spend of splitting bundles, which no schema groups. */
const SPLIT_USAGE_NAME = 'Splitting bundles';

/** Each schema's extractions, tokens, cost and savings over the range, the costliest first. */
export async function usageBySchema(
  db: Db,
  accountId: string,
  from: Date,
  toExclusive: Date,
): Promise<UsageBySchema[]> {
  const rows = await db
    .select({
      schemaId: extractions.schemaId,
      schemaName: sql<string>`max(${extractions.schemaName})`,
      extractions: sql<number>`count(*)::int`,
      tokens: sql<number>`coalesce(sum(${extractions.totalTokens}), 0)::float8`,
      ...money,
    })
    .from(extractions)
    .where(inRange(accountId, from, toExclusive))
    .groupBy(extractions.schemaId);
  return rows
    .map((r) => ({
      ...r,
      // Split parents have no schema: their own spend is classifying pages (docs/split.md).
      ...(r.schemaId === null ? { schemaName: SPLIT_USAGE_NAME } : {}),
      costUsd: cents(r.costUsd),
      savedUsd: cents(r.savedUsd),
    }))
    .sort((a, b) => b.costUsd - a.costUsd || b.extractions - a.extractions);
}

/** The range's totals: the days' sums, money kept to 10⁻⁸ USD as each day's is. */
export function usageTotals(days: UsageDay[]): Omit<UsageDay, 'date'> {
  return days.reduce(
    (t, d) => ({
      extractions: t.extractions + d.extractions,
      charged: t.charged + d.charged,
      failed: t.failed + d.failed,
      tokens: t.tokens + d.tokens,
      chargedTokens: t.chargedTokens + d.chargedTokens,
      unchargedTokens: t.unchargedTokens + d.unchargedTokens,
      costUsd: cents(t.costUsd + d.costUsd),
      reused: t.reused + d.reused,
      savedUsd: cents(t.savedUsd + d.savedUsd),
    }),
    {
      extractions: 0,
      charged: 0,
      failed: 0,
      tokens: 0,
      chargedTokens: 0,
      unchargedTokens: 0,
      costUsd: 0,
      reused: 0,
      savedUsd: 0,
    },
  );
}
