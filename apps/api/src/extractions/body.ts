import { z } from 'zod';
import {
  DEFAULT_PRIORITY,
  EXTRACTION_PRIORITIES,
  isSourceType,
  SOURCE_KINDS,
  SOURCE_TYPES,
  typeOfRecord,
  type ExtractionPriority,
  type PublicModel,
  type SourceType,
  type SplitRequest,
} from '@xt/contract';
import { validationError } from '../http/errors/errors.ts';
import { checkSubmittedUrl, type Allowlist } from '@xt/fetcher';
import { checkFields } from '../http/input/validate.ts';
import { isDataUrl } from '../uploads/data-url.ts';
import type { ReceivedFile } from '../uploads/receive.ts';
import {
  uploadFromDataUrl,
  uploadFromPart,
  type UploadInput,
  type UploadResult,
} from '../uploads/upload-input.ts';
import { parseCache, type CacheRequest } from './cache-field.ts';
import { parseCitations } from './citations-field.ts';
import { parseMetadata, type Metadata } from './metadata.ts';
import { parseSplit, SPLIT_SOURCE_TYPES, splitConflicts } from './split-field.ts';

export const MAX_INSTRUCTION_CHARS = 4000;

export interface ExtractionInput {
  /** null exactly when `split` is given: each class names its own schema (docs/split.md). */
  schemaId: string | null;
  /** Cut the source, a bundle, into its documents and extract each by its class (docs/split.md). */
  split?: SplitRequest;
  type: SourceType;
  source: string;
  model: PublicModel;
  instruction?: string;
  metadata: Metadata;
  /** Locate each output value in the source (docs/citations.md). */
  citations: boolean;
  /** An uploaded file (a file part or a data: URL); `source` is then its display name. */
  upload?: UploadInput;
  /** Reuse of an earlier answer (docs/reuse.md); absent: the service's default age. */
  cache?: CacheRequest;
  /** `batch`: through the provider's batch interface, within BATCH_WINDOW_HOURS (docs/batch.md). */
  priority: ExtractionPriority;
}

export interface BodyOptions {
  maxTextChars: number;
  maxUploadBytes: number;
  allowlist: Allowlist;
  /** Multipart or urlencoded: metadata arrives as a JSON string, citations as `true`/`false`. */
  form: boolean;
  /** The multipart `source` file part, and how many such parts came. */
  files?: { file?: ReceivedFile; count: number };
  /** the public model names served (MODEL_ENDPOINTS), and the one used when none is named */
  models: { names: readonly string[]; defaultModel: string };
}

const oneString = (name: string) =>
  z.string({
    error: (i) =>
      i.input === undefined || i.input === null
        ? `${name} is required`
        : Array.isArray(i.input)
          ? `${name} must be given once`
          : `${name} must be a string`,
  });

/**
 * The refusal of an unknown `type`. A record shows a webpage as `source.type: "url"`, so a
 * client copying it back sends `url`: the message then says which type that is.
 */
function typeMessage(input: unknown): string {
  const all = `type must be one of: ${SOURCE_TYPES.join(', ')}`;
  if (typeof input !== 'string') return all;
  const kind = typeOfRecord(input);
  return kind && kind !== input
    ? `${all}; records show type ${kind} as "${input}", send ${kind}`
    : all;
}

/** The create form's plain fields; `source` may also be a file (docs/uploads.md), `metadata` is checked by parseMetadata. */
export const extractionFields = z.object({
  schema_id: oneString('schema_id')
    .trim()
    .pipe(z.uuid({ error: 'schema_id must be a UUID' })),
  type: oneString('type').pipe(z.enum(SOURCE_TYPES, { error: (i) => typeMessage(i.input) })),
  source: oneString('source'),
  // Any public name the operator configured (MODEL_ENDPOINTS); checked against them in
  // parseExtractionBody, since the list is the process's configuration, not the contract's.
  model: z
    .string({ error: 'model must be a string' })
    .max(100, 'model must be at most 100 characters')
    .optional(),
  instruction: z
    .string({ error: 'instruction must be a string' })
    .max(MAX_INSTRUCTION_CHARS, `instruction must be at most ${MAX_INSTRUCTION_CHARS} characters`)
    .optional(),
  // The same text in JSON and in forms, so one rule serves every body type.
  priority: z
    .enum(EXTRACTION_PRIORITIES, {
      error: `priority must be one of: ${EXTRACTION_PRIORITIES.join(', ')}`,
    })
    .optional(),
});

/** What is wrong with `source` given as a field, for the ways the registry lets `type` take it. */
function sourceError(
  type: SourceType,
  source: string,
  opts: { maxTextChars: number; allowlist: Allowlist },
): string | null {
  if (SOURCE_KINDS[type].inputs.inline) {
    if (source.trim() === '') return 'source must not be empty';
    if (source.length > opts.maxTextChars)
      return `source must be at most ${opts.maxTextChars} characters`;
    return null;
  }
  const problem = checkSubmittedUrl(source.trim(), opts.allowlist);
  return problem ? `source ${problem} (for type ${type}, source is the URL of the content)` : null;
}

/** The `source` file part, or a data: URL in `source`, checked against the declared type. */
async function uploadOf(
  type: SourceType,
  body: Record<string, unknown>,
  opts: BodyOptions,
): Promise<UploadResult | null> {
  const files = opts.files ?? { count: 0 };
  if (files.count > 0) {
    if (body.source !== undefined)
      return { ok: false, message: 'source was sent both as a file and as a field; send one' };
    if (files.count > 1)
      return {
        ok: false,
        message: `source must be a single file; the request had ${files.count} file parts named source`,
      };
    if (!files.file) return null;
    return uploadFromPart(type, files.file, opts);
  }
  if (SOURCE_KINDS[type].inputs.dataUrl && typeof body.source === 'string')
    if (isDataUrl(body.source)) return uploadFromDataUrl(type, body.source.trim(), opts);
  return null;
}

/**
 * The create form, whatever content type carried it. Every invalid field is reported in one
 * 422; the URL rules (docs/api.md#create-an-extraction) run only once `type` is known to be a URL type, and `source` may be
 * a file part or a data: URL instead (docs/uploads.md).
 */
export async function parseExtractionBody(
  body: Record<string, unknown>,
  opts: BodyOptions,
): Promise<ExtractionInput> {
  const hasFile = (opts.files?.count ?? 0) > 0;
  // With `split` there is no top-level schema_id (each class names its own): refused below
  // when given, never asked for.
  const splitGiven =
    body.split !== undefined &&
    body.split !== null &&
    !(opts.form && typeof body.split === 'string' && body.split.trim() === '');
  const fields = splitGiven
    ? extractionFields.extend({ schema_id: z.unknown().optional() })
    : extractionFields;
  const schema = hasFile ? fields.extend({ source: z.unknown().optional() }) : fields;
  const { data: parsed, errors } = checkFields(schema, body);
  const split = parseSplit(body.split, opts.form);
  errors.push(...split.errors);
  if (splitGiven)
    errors.push(...splitConflicts(body, isSourceType(body.type) ? body.type : undefined));
  const metadata = parseMetadata(body.metadata, opts.form);
  errors.push(...metadata.errors);
  const citations = parseCitations(body.citations, opts.form);
  errors.push(...citations.errors);
  const cache = parseCache(body, opts.form);
  errors.push(...cache.errors);
  const model = parsed?.model?.trim() || opts.models.defaultModel;
  if (parsed && !opts.models.names.includes(model))
    errors.push({
      field: 'model',
      message: `model must be one of: ${opts.models.names.join(', ')}`,
    });
  const type = isSourceType(body.type) ? body.type : undefined;
  const upload = type ? await uploadOf(type, body, opts) : null;
  if (upload && !upload.ok) errors.push({ field: 'source', message: upload.message });
  else if (splitGiven && upload?.ok && !SPLIT_SOURCE_TYPES.has(upload.upload.type))
    errors.push({
      field: 'split',
      message: `split takes a source read as pages; the file is ${upload.upload.type}`,
    });
  else if (
    !upload &&
    type &&
    typeof body.source === 'string' &&
    !errors.some((e) => e.field === 'source')
  ) {
    const problem = sourceError(type, body.source, opts);
    if (problem) errors.push({ field: 'source', message: problem });
  }
  if (errors.length > 0 || !parsed) throw validationError(errors);
  const source = upload?.ok
    ? upload.upload.file.name
    : SOURCE_KINDS[parsed.type].inputs.inline
      ? String(parsed.source)
      : String(parsed.source).trim();
  const input: ExtractionInput = {
    schemaId: split.split ? null : String(parsed.schema_id).toLowerCase(),
    // An upload with `auto` is stored as the kind its content is.
    type: upload?.ok ? upload.upload.type : parsed.type,
    source,
    model,
    metadata: metadata.metadata,
    citations: citations.citations,
    priority: parsed.priority ?? DEFAULT_PRIORITY,
  };
  if (upload?.ok) input.upload = upload.upload;
  if (split.split) input.split = split.split;
  if (cache.cache !== undefined) input.cache = cache.cache;
  if (parsed.instruction !== undefined && parsed.instruction.trim() !== '')
    input.instruction = parsed.instruction;
  return input;
}
