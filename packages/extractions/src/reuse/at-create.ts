import type { BlobStore } from '@xt/blob-store';
import type { Db } from '@xt/db';
import type { KeyClaim, NewExtraction, Transaction, Written } from '../create.ts';
import { writeReusedExtraction } from './create-reused.ts';
import { findReusableForSchema } from './lookup.ts';

/**
 * The create's reuse, when its key is known now (typed text, uploads) and the request allows
 * it: the extraction written completed from an earlier answer, or null to create it as usual.
 */
export async function reuseAtCreate(
  deps: { db: Db; store: BlobStore },
  accountId: string,
  input: NewExtraction,
  opts: {
    requestId: string;
    claimKey?: ((tx: Transaction, id: string) => Promise<KeyClaim>) | undefined;
  },
): Promise<Written | null> {
  const { key, maxAgeSeconds } = input.reuse;
  if (!key || maxAgeSeconds === null) return null;
  const hit = await findReusableForSchema(deps.db, {
    accountId,
    key,
    maxAgeSeconds,
    schemaId: input.schemaId,
  });
  return hit ? writeReusedExtraction(deps, accountId, input, hit, opts) : null;
}
