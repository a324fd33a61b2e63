import { createHash } from 'node:crypto';

/**
 * What makes two requests "the same request" for an Idempotency-Key (docs/idempotency.md): the
 * route, the body as the service understood it (after validation, so a JSON body and a form
 * with the same fields are the same request, and `model: ""` equals an absent model), and an
 * uploaded file by its SHA-256.
 *
 * Top-level fields are sorted; nested values keep their order, because the service keeps it
 * (a schema's structure comes back exactly as submitted, so key order is part of the resource).
 * Binary values (a Buffer holding an uploaded file) count by their SHA-256, never byte by byte.
 */
export function requestFingerprint(
  route: string,
  fields: Record<string, unknown>,
  fileSha256?: string,
): Buffer {
  const sorted = Object.fromEntries(
    Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const body = JSON.stringify(
    sorted,
    function (this: Record<string, unknown>, key, value: unknown) {
      const original = key === '' ? value : this[key];
      if (original instanceof Uint8Array)
        return `sha256:${createHash('sha256').update(original).digest('hex')}`;
      return value;
    },
  );
  return createHash('sha256')
    .update(`${route}\n${body}\n${fileSha256 ?? ''}`)
    .digest();
}
