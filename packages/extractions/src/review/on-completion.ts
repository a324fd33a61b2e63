import { and, eq } from 'drizzle-orm';
import type { Citations, ReviewReason } from '@xt/contract';
import { extractions, schemas, type Db } from '@xt/db';
import { reviewReasons } from './decide.ts';

/**
 * The review columns a completion writes with its output (docs/review.md): queued when the
 * schema's review settings, as they are at completion, find a reason. Read before the
 * completing update so both land in one statement. A schema deleted since the create has no
 * settings any more, so its extractions are not queued.
 */
export async function reviewOnCompletion(
  db: Pick<Db, 'select'>,
  id: string,
  output: unknown,
  citations: Citations | null,
): Promise<{ reviewStatus: 'needs_review'; reviewReasons: ReviewReason[] } | undefined> {
  const [found] = await db
    .select({ policy: schemas.review, structure: extractions.schemaStructure })
    .from(extractions)
    .innerJoin(
      schemas,
      and(eq(schemas.id, extractions.schemaId), eq(schemas.accountId, extractions.accountId)),
    )
    .where(eq(extractions.id, id));
  if (!found?.policy) return undefined;
  const reasons = reviewReasons({
    id,
    policy: found.policy,
    structure: found.structure,
    output,
    citations,
  });
  return reasons.length > 0 ? { reviewStatus: 'needs_review', reviewReasons: reasons } : undefined;
}
