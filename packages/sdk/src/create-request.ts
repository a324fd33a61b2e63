import { randomUUID } from 'node:crypto';
import type { CreatedExtraction, CreateExtractionOptions } from './client-options.ts';
import type { CreateExtractionParams } from './create-params.ts';
import { ApiError, ExtractionFailedError } from './errors.ts';
import type { Transport } from './transport.ts';
import type { ExtractionOutcome, FailureCode } from './types.ts';
import { isUpload, uploadBlob, type Upload } from './uploads.ts';

/**
 * `POST /extractions` as XtClient sends it: JSON, or multipart when the source is a file; an
 * Idempotency-Key kept across retries; a synchronous create that ended in a failed extraction
 * thrown as ExtractionFailedError naming it.
 */
export async function createExtraction(
  http: Transport,
  params: CreateExtractionParams,
  options: CreateExtractionOptions,
): Promise<CreatedExtraction> {
  const key = options.idempotencyKey ?? randomUUID();
  const headers: Record<string, string> = { ...options.headers, 'idempotency-key': key };
  if (options.waitSeconds !== undefined) headers.prefer = `wait=${options.waitSeconds}`;
  const fields: Record<string, string> = { type: params.type };
  // A split names its schemas per class: the service refuses a top-level schema_id with it.
  if (params.schemaId !== undefined) fields.schema_id = params.schemaId;
  if (params.model !== undefined) fields.model = params.model;
  if (params.instruction !== undefined) fields.instruction = params.instruction;
  if (params.priority !== undefined) fields.priority = params.priority;
  const base = {
    method: 'POST' as const,
    path: '/extractions',
    headers,
    resendable: true,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  try {
    const res = isUpload(params.source)
      ? await http.request<ExtractionOutcome>({
          ...base,
          // Multipart carries citations as text, JSON (below) as a boolean.
          form: await multipart(
            {
              ...fields,
              // Multipart carries the split as a JSON-encoded text field.
              ...(params.split ? { split: JSON.stringify(params.split) } : {}),
              ...(params.citations ? { citations: 'true' } : {}),
              ...formCache(params.cache),
            },
            params.metadata,
            params.source,
          ),
        })
      : await http.request<ExtractionOutcome>({
          ...base,
          json: {
            ...fields,
            source: params.source,
            ...(params.split ? { split: params.split } : {}),
            ...(params.metadata ? { metadata: params.metadata } : {}),
            ...(params.citations ? { citations: true } : {}),
            ...(params.cache !== undefined ? { cache: params.cache } : {}),
          },
        });
    const retryAfter = res.headers.get('retry-after');
    return {
      httpStatus: res.status,
      extraction: res.data,
      retryAfter: retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined,
      replayed: res.headers.get('idempotent-replayed') === 'true',
      idempotencyKey: key,
    };
  } catch (error) {
    // A synchronous create that ended in a failed extraction names it; a refused request
    // (a 422 on schema_id, say) does not.
    if (error instanceof ApiError && error.extractionId) {
      throw new ExtractionFailedError(
        error.extractionId,
        error.code as FailureCode,
        error.body?.message ?? error.message,
        error,
      );
    }
    throw error;
  }
}

async function multipart(
  fields: Record<string, string>,
  metadata: Record<string, string> | undefined,
  upload: Upload,
): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  // Multipart carries metadata as a JSON string (docs/uploads.md).
  if (metadata) form.append('metadata', JSON.stringify(metadata));
  const { blob, filename } = await uploadBlob(upload);
  form.append('source', blob, filename);
  return form;
}

/** Multipart spells the reuse setting as two text fields (docs/reuse.md). */
function formCache(cache: CreateExtractionParams['cache']): Record<string, string> {
  if (cache === undefined) return {};
  return cache === false ? { cache: 'false' } : { cache_max_age: String(cache.maxAge) };
}
