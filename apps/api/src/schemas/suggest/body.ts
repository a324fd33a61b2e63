import { z } from 'zod';
import type { FieldError, PublicModel } from '@xt/contract';
import { validationError } from '../../http/errors/errors.ts';
import { checkFields } from '../../http/input/validate.ts';
import type { ReceivedFile } from '../../uploads/receive.ts';
import { uploadFromPart, type UploadInput } from '../../uploads/upload-input.ts';

/** The multipart field the samples come in, repeated once per file. */
export const SAMPLES_FIELD = 'files';
export const MAX_SAMPLES = 5;
const MAX_PROMPT_CHARS = 2000;

export interface SuggestInput {
  samples: UploadInput[];
  prompt?: string;
  model: PublicModel;
}

export const suggestFields = z.object({
  prompt: z
    .string({ error: 'prompt must be a string, given once' })
    .max(MAX_PROMPT_CHARS, `prompt must be at most ${MAX_PROMPT_CHARS} characters`)
    .optional(),
  model: z
    .string({ error: 'model must be a string' })
    .max(100, 'model must be at most 100 characters')
    .optional(),
});

interface SuggestBodyOptions {
  maxTextChars: number;
  maxUploadBytes: number;
  received: { files: ReceivedFile[]; count: number };
  models: { names: readonly string[]; defaultModel: string };
}

/** What is wrong with the file parts as a whole, before each is looked at. */
function countError(body: Record<string, unknown>, count: number): FieldError | undefined {
  const field = SAMPLES_FIELD;
  // A sample is a document as people have it; typed text has no such thing to draft from.
  if (body[field] !== undefined || body.source !== undefined)
    return {
      field: body[field] !== undefined ? field : 'source',
      message: `samples are files: send 1 to ${MAX_SAMPLES} file parts named ${field}, not text fields (a text, Markdown, CSV or HTML file is a file)`,
    };
  if (count === 0)
    return { field, message: `${field} is required: 1 to ${MAX_SAMPLES} sample files` };
  if (count > MAX_SAMPLES)
    return {
      field,
      message: `at most ${MAX_SAMPLES} sample files; the request had ${count}`,
    };
  return undefined;
}

/**
 * A suggestion's form: 1 to 5 files under `files`, each checked as an extraction's upload of
 * type `auto` (recognised by content, the same kinds and limits), `prompt` and `model`. Every
 * problem is one entry of a single 422; a file's names its position, `files[2]`.
 */
export async function parseSuggestBody(
  body: Record<string, unknown>,
  opts: SuggestBodyOptions,
): Promise<SuggestInput> {
  const { data, errors } = checkFields(suggestFields, body);
  const model = data?.model?.trim() || opts.models.defaultModel;
  if (data && !opts.models.names.includes(model))
    errors.push({
      field: 'model',
      message: `model must be one of: ${opts.models.names.join(', ')}`,
    });
  const problem = countError(body, opts.received.count);
  const samples: UploadInput[] = [];
  if (problem) errors.push(problem);
  else {
    for (const [i, file] of opts.received.files.entries()) {
      const checked = await uploadFromPart('auto', file, opts);
      if (checked.ok) samples.push(checked.upload);
      else
        errors.push({
          field: `${SAMPLES_FIELD}[${i}]`,
          message: checked.message.replace(/^source\b/, `the file "${file.originalName ?? i}"`),
        });
    }
  }
  if (errors.length > 0 || !data) throw validationError(errors);
  const prompt = data.prompt?.trim();
  return { samples, model, ...(prompt ? { prompt } : {}) };
}
