import type { IncomingHttpHeaders } from 'node:http';
import { recordRequest } from './record.ts';
import type { RecordedRequest } from './types.ts';

/** How one chat-completions body is answered: the same logic as a direct call's. */
export type AnswerChat = (
  request: RecordedRequest,
  rawBody: string,
) => Promise<{ status: number; body: unknown } | null>;

export interface BatchOptions {
  /** false: `/v1/files` and `/v1/batches` answer 404, as a provider without them (default true) */
  enabled?: boolean;
  /** a batch completes once retrieved this long after it was created (default 0) */
  delayMs?: number;
}

/** One call to the Files or Batches interface, as tests assert on it. */
export interface BatchCall {
  method: string;
  path: string;
}

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: Buffer;
  created_at: number;
}

interface StoredBatch {
  id: string;
  object: 'batch';
  endpoint: string;
  input_file_id: string;
  completion_window: string;
  status: 'in_progress' | 'completed' | 'cancelled';
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  completed_at: number | null;
  cancelled_at: number | null;
  metadata: Record<string, string> | null;
  request_counts: { total: number; completed: number; failed: number };
}

export interface BatchInterface {
  /** every Files and Batches call, in order */
  calls: BatchCall[];
  /** every line of every batch it answered, recorded as a direct request would be */
  lines: RecordedRequest[];
  /** the batches created, by id */
  batches: Map<string, StoredBatch>;
  /** set the delay before a batch completes; `Infinity` holds them until `completeAll()` */
  setDelay(ms: number): void;
  /** complete every batch still in progress at its next retrieve */
  completeAll(): void;
  /** answers the request, or undefined when it is not for this interface */
  handle(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    raw: Buffer,
    query?: URLSearchParams,
  ): Promise<{ status: number; body: unknown; raw?: Buffer } | undefined>;
  reset(): void;
}

/**
 * OpenAI's Files and Batches interface, as far as a batch of chat completions needs it: a JSONL
 * file uploaded (multipart), a batch created over it, retrieved until `completed`, its output
 * file downloaded, or cancelled. Each line is answered like a direct call (`answer`), and the
 * batch completes `delayMs` after it was created, at the first retrieve past it.
 */
export function createBatchInterface(answer: AnswerChat, options: BatchOptions): BatchInterface {
  const files = new Map<string, StoredFile>();
  const batches = new Map<string, StoredBatch>();
  const calls: BatchCall[] = [];
  const lines: RecordedRequest[] = [];
  let delayMs = options.delayMs ?? 0;
  let releaseAll = false;
  let counter = 0;
  const now = () => Math.floor(Date.now() / 1000);

  function store(filename: string, purpose: string, bytes: Buffer): StoredFile {
    const file = { id: `file-standin-${++counter}`, filename, purpose, bytes, created_at: now() };
    files.set(file.id, file);
    return file;
  }

  const fileObject = (f: StoredFile) => ({
    id: f.id,
    object: 'file',
    bytes: f.bytes.length,
    created_at: f.created_at,
    filename: f.filename,
    purpose: f.purpose,
    status: 'processed',
  });

  /** Answers every line of the input file and writes the output (and error) files. */
  async function run(batch: StoredBatch): Promise<void> {
    const input = files.get(batch.input_file_id);
    const out: string[] = [];
    const errors: string[] = [];
    for (const line of (input?.bytes.toString('utf8') ?? '').split('\n')) {
      if (line.trim() === '') continue;
      const { custom_id: customId, body } = JSON.parse(line) as {
        custom_id: string;
        body: unknown;
      };
      const raw = JSON.stringify(body);
      const recorded = recordRequest('POST', '/v1/chat/completions', {}, raw);
      lines.push(recorded);
      const answered = (await answer(recorded, raw)) ?? {
        status: 500,
        body: { error: { message: 'no answer', type: 'server_error' } },
      };
      const result = {
        id: `batch_req_${++counter}`,
        custom_id: customId,
        response: {
          status_code: answered.status,
          request_id: `req_${counter}`,
          body: answered.body,
        },
        error: null,
      };
      (answered.status === 200 ? out : errors).push(JSON.stringify(result));
    }
    batch.request_counts = {
      total: out.length + errors.length,
      completed: out.length,
      failed: errors.length,
    };
    if (out.length > 0)
      batch.output_file_id = store(
        'output.jsonl',
        'batch_output',
        Buffer.from(`${out.join('\n')}\n`),
      ).id;
    if (errors.length > 0)
      batch.error_file_id = store(
        'errors.jsonl',
        'batch_output',
        Buffer.from(`${errors.join('\n')}\n`),
      ).id;
    batch.status = 'completed';
    batch.completed_at = now();
  }

  async function handle(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    raw: Buffer,
    query: URLSearchParams = new URLSearchParams(),
  ): Promise<{ status: number; body: unknown; raw?: Buffer } | undefined> {
    if (!path.startsWith('/v1/files') && !path.startsWith('/v1/batches')) return undefined;
    if (options.enabled === false)
      return {
        status: 404,
        body: {
          error: { message: `Unknown route ${method} ${path}`, type: 'invalid_request_error' },
        },
      };
    calls.push({ method, path });
    const parts = path.split('/').filter(Boolean); // v1, files|batches, id?, action?
    const [, kind, id, action] = parts;
    const missing = {
      status: 404,
      body: { error: { message: `No such ${kind}: ${id}`, type: 'invalid_request_error' } },
    };

    if (kind === 'files') {
      if (method === 'POST' && !id) {
        const form = await new Request('http://stand-in/v1/files', {
          method: 'POST',
          headers: headers as Record<string, string>,
          body: raw,
        }).formData();
        const file = form.get('file');
        if (!(file instanceof Blob))
          return {
            status: 400,
            body: { error: { message: 'file is required', type: 'invalid_request_error' } },
          };
        const name = file instanceof File ? file.name : 'upload.jsonl';
        const purposeField = form.get('purpose');
        const purpose = typeof purposeField === 'string' ? purposeField : '';
        return {
          status: 200,
          body: fileObject(store(name, purpose, Buffer.from(await file.arrayBuffer()))),
        };
      }
      const file = id ? files.get(id) : undefined;
      if (method === 'GET' && !id)
        return { status: 200, body: { object: 'list', data: [...files.values()].map(fileObject) } };
      if (!file) return missing;
      if (method === 'GET' && action === 'content')
        return { status: 200, body: undefined, raw: file.bytes };
      if (method === 'GET' && !action) return { status: 200, body: fileObject(file) };
      return missing;
    }

    if (method === 'POST' && !id) {
      const body = JSON.parse(raw.toString('utf8')) as {
        input_file_id?: string;
        endpoint?: string;
        completion_window?: string;
        metadata?: Record<string, string>;
      };
      if (!body.input_file_id || !files.has(body.input_file_id))
        return {
          status: 400,
          body: {
            error: { message: 'input_file_id is not a file', type: 'invalid_request_error' },
          },
        };
      const batch: StoredBatch = {
        id: `batch_standin_${++counter}`,
        object: 'batch',
        endpoint: body.endpoint ?? '/v1/chat/completions',
        input_file_id: body.input_file_id,
        completion_window: body.completion_window ?? '24h',
        status: 'in_progress',
        output_file_id: null,
        error_file_id: null,
        created_at: now(),
        completed_at: null,
        cancelled_at: null,
        metadata: body.metadata ?? null,
        request_counts: { total: 0, completed: 0, failed: 0 },
      };
      batches.set(batch.id, batch);
      created.set(batch.id, Date.now());
      return { status: 200, body: batch };
    }
    if (method === 'GET' && !id) {
      // Newest first, `limit` a page (20 by default, as OpenAI's), `after` the last id seen.
      const newest = [...batches.values()].reverse();
      const after = query.get('after');
      const from = after ? newest.findIndex((b) => b.id === after) + 1 : 0;
      const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 20) || 20));
      const data = newest.slice(from, from + limit);
      return {
        status: 200,
        body: {
          object: 'list',
          data,
          first_id: data[0]?.id ?? null,
          last_id: data.at(-1)?.id ?? null,
          has_more: from + limit < newest.length,
        },
      };
    }
    const batch = id ? batches.get(id) : undefined;
    if (!batch) return missing;
    if (method === 'POST' && action === 'cancel') {
      if (batch.status === 'in_progress') {
        batch.status = 'cancelled';
        batch.cancelled_at = now();
      }
      return { status: 200, body: batch };
    }
    if (method === 'GET' && !action) {
      const due = releaseAll || Date.now() >= (created.get(batch.id) ?? 0) + delayMs;
      if (batch.status === 'in_progress' && due) await run(batch);
      return { status: 200, body: batch };
    }
    return missing;
  }

  const created = new Map<string, number>();
  return {
    calls,
    lines,
    batches,
    setDelay(ms) {
      delayMs = ms;
      releaseAll = false;
    },
    completeAll() {
      releaseAll = true;
    },
    handle,
    reset() {
      calls.length = 0;
      lines.length = 0;
      files.clear();
      batches.clear();
      created.clear();
    },
  };
}
