import type { BlobStore } from '@xt/blob-store';
import type { Db } from '@xt/db';
import type { KeyClaim, NewExtraction, Transaction, Written } from '../create.ts';
import { writeReusedExtraction } from './create-reused.ts';
import { findReusableForSchema, findReusableForStructure } from './lookup.ts';

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
  // A split bundle's answer is its documents, made by its children: never reused (docs/split.md).
  if (!key || maxAgeSeconds === null || input.schemaId === null) return null;
  const lookup = { accountId, key, maxAgeSeconds };
  const hit = input.unsavedSchema
    ? await findReusableForStructure(deps.db, {
        ...lookup,
        structure: input.unsavedSchema.structure,
      })
    : await findReusableForSchema(deps.db, { ...lookup, schemaId: input.schemaId });
  return hit ? writeReusedExtraction(deps, accountId, input, hit, opts) : null;
}
