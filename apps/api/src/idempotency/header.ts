import type { Request } from 'express';
import { z } from 'zod';
import type { FieldError } from '@xt/contract';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** 1–255 printable ASCII characters (space to tilde); also what the OpenAPI document shows. */
export const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/)
  .meta({
    description:
      'Repeating a request with the same key gives the same resource, answered with `Idempotent-Replayed: true`; the same key with a different request is a 422 IDEMPOTENCY_KEY_REUSED (docs/idempotency.md).',
  });

export type KeyReading =
  { kind: 'absent' } | { kind: 'key'; key: string } | { kind: 'malformed'; error: FieldError };

/**
 * The request's Idempotency-Key. A header that is present but empty, too long or not printable
 * ASCII is malformed (422 on the header), never silently ignored: a client that meant to retry
 * safely must not get a second resource because of a typo in its key.
 */
export function readIdempotencyKey(req: Request): KeyReading {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return { kind: 'absent' };
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (IdempotencyKeySchema.safeParse(value).success) return { kind: 'key', key: value };
  return {
    kind: 'malformed',
    error: {
      field: IDEMPOTENCY_HEADER,
      message: `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters`,
    },
  };
}
