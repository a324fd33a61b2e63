import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  DRAFT_INSTRUCTION,
  DRAFT_REQUEST_STRUCTURE,
  isFailureCode,
  serializeSingleRecord,
  type Structure,
} from '@xt/contract';
import type { ExtractionRow } from '@xt/db';
import { HttpError, validationError } from '../../http/errors/errors.ts';
import { SOURCE_FAILURES } from '../../http/errors/failure-status.ts';
import type { ExtractionService } from '../../extractions/service.ts';
import type { UploadInput } from '../../uploads/upload-input.ts';
import { SAMPLES_FIELD, type SuggestInput } from './body.ts';
import { draftStructure, fieldsFound, proposalsOf } from './draft.ts';
import type { Suggestion } from './response.ts';

/** The names the suggestion's extractions show in records, one per round. */
const DRAFTING_NAME = 'Schema suggestion: drafting';
const DRAFT_RUN_NAME = 'Schema suggestion: draft run';

/** Seconds a client is asked to wait before repeating a suggestion the workers did not finish. */
const UNFINISHED_RETRY_AFTER_SECONDS = 10;

interface SuggestContext {
  requestId: string;
  traceparent?: string | undefined;
  signal: AbortSignal;
  log: Logger;
}

/**
 * A schema suggestion (docs/api.md#suggest-a-schema): two rounds of ordinary extractions on the
 * samples, worked by the workers through the queue like any other and charged as such. The
 * first asks each sample which fields it carries; their proposals become one draft structure;
 * the second runs that draft on each sample with citations. Nothing is stored as a schema: the
 * extractions carry the structures themselves, grouped under the suggestion's id as schema_id.
 */
export class SuggestService {
  constructor(
    private readonly extractions: ExtractionService,
    private readonly waitSeconds: number,
  ) {}

  async suggest(accountId: string, input: SuggestInput, ctx: SuggestContext): Promise<Suggestion> {
    const id = randomUUID();
    const deadline = Date.now() + this.waitSeconds * 1000;
    const instruction = input.prompt
      ? `${DRAFT_INSTRUCTION}\nWhat the client wants the schema for: ${input.prompt}`
      : DRAFT_INSTRUCTION;
    const drafting = await this.round(accountId, input, ctx, deadline, {
      id,
      name: DRAFTING_NAME,
      structure: DRAFT_REQUEST_STRUCTURE,
      instruction,
      citations: false,
    });
    const structure = draftStructure(drafting.map((row) => proposalsOf(row.output)));
    if (!structure)
      throw validationError([
        {
          field: SAMPLES_FIELD,
          message: 'no field could be drafted from these samples: they carry no readable content',
        },
      ]);
    const runs = await this.round(accountId, input, ctx, deadline, {
      id,
      name: DRAFT_RUN_NAME,
      structure,
      citations: true,
    });
    const rows = [...drafting, ...runs];
    return {
      id,
      structure,
      samples: runs.map((row, i) => {
        const { citations, warnings } = serializeSingleRecord(row);
        return {
          file: input.samples[i]!.file,
          extractionId: row.id,
          output: row.output,
          ...(citations ? { citations } : {}),
          ...(warnings ? { warnings } : {}),
          fields: fieldsFound(structure, row.output),
        };
      }),
      usage: {
        extractions: rows.map((row) => row.id),
        totalTokens: rows.reduce((sum, row) => sum + row.totalTokens, 0),
        costUsd: rows.reduce((sum, row) => sum + row.costUsd, 0),
      },
    };
  }

  /** One extraction per sample with `structure`, all waited for; each must complete. */
  private async round(
    accountId: string,
    input: SuggestInput,
    ctx: SuggestContext,
    deadline: number,
    run: {
      id: string;
      name: string;
      structure: Structure;
      instruction?: string;
      citations: boolean;
    },
  ): Promise<ExtractionRow[]> {
    const waitSeconds = Math.max(0, (deadline - Date.now()) / 1000);
    const outcomes = await Promise.all(
      input.samples.map((upload: UploadInput) =>
        this.extractions.create(
          accountId,
          {
            schemaId: run.id,
            unsavedSchema: { name: run.name, structure: run.structure },
            type: upload.type,
            source: upload.file.name,
            upload,
            model: input.model,
            metadata: {},
            citations: run.citations,
            priority: 'standard',
            ...(run.instruction ? { instruction: run.instruction } : {}),
          },
          { ...ctx, waitSeconds },
        ),
      ),
    );
    return outcomes.map((outcome, i) => {
      if (outcome.kind === 'accepted') throw unfinished(outcome.retryAfterSeconds);
      if (outcome.row.status !== 'completed') throw failedSample(outcome.row, i);
      return outcome.row;
    });
  }
}

function unfinished(retryAfterSeconds: number): HttpError {
  return new HttpError(
    503,
    'UNAVAILABLE',
    'The workers did not finish the suggestion in time. Repeat the request shortly: calls that finished meanwhile are reused, not charged again.',
    {
      headers: {
        'Retry-After': String(Math.max(retryAfterSeconds, UNFINISHED_RETRY_AFTER_SECONDS)),
      },
    },
  );
}

/**
 * A sample's extraction that failed: its source is the client's to fix (422 on that file), a
 * model that answered unusably is a 502, and anything the provider or the service may get over
 * (unavailable, timed out) is a 503 worth retrying.
 */
function failedSample(row: ExtractionRow, index: number): HttpError {
  const code = isFailureCode(row.errorCode) ? row.errorCode : 'INTERNAL';
  const message = row.errorMessage ?? 'The extraction failed.';
  const extra = { extractionId: row.id };
  if (SOURCE_FAILURES.has(code))
    return new HttpError(422, code, message, {
      fields: [{ field: `${SAMPLES_FIELD}[${index}]`, message }],
      extra,
    });
  if (code === 'MODEL_REFUSED' || code === 'MODEL_CONTEXT_TOO_SMALL' || code === 'OUTPUT_INVALID')
    return new HttpError(502, code, message, { extra });
  return new HttpError(503, code, message, {
    headers: { 'Retry-After': String(UNFINISHED_RETRY_AFTER_SECONDS) },
    extra,
  });
}
