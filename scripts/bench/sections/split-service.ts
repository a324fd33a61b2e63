/** Section 16's calls to the API it started: JSON requests, an upload, and a read until final. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { SplitDocument } from '../lib/split-score.ts';

export interface Rec {
  id: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  result?: { documents?: (SplitDocument & { extractionId?: string | null })[] } | null;
  review?: { status: string } | null;
  error?: unknown;
}

export interface Service {
  url: string;
  key: string;
  /** One JSON request; its `data`, or an error naming the answer. */
  call: <T>(method: string, path: string, body?: unknown) => Promise<T>;
  /** Read until final; as it stands when it is not final within the timeout. */
  settle: (id: string) => Promise<Rec>;
  /** `POST /v1/extractions` of a file with form fields, answered at once (respond-async). */
  upload: (fields: Record<string, string>, file: string) => Promise<Rec>;
}

export function service(url: string, key: string, timeoutMs: number): Service {
  const auth = { authorization: `Bearer ${key}` };

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    return (JSON.parse(text) as { data: T }).data;
  };

  const settle = async (id: string): Promise<Rec> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const rec = await call<Rec>('GET', `/v1/extractions/${id}`);
      if (!['pending', 'processing'].includes(rec.status) || Date.now() > until) return rec;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const upload = async (fields: Record<string, string>, file: string): Promise<Rec> => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.set('source', new Blob([await readFile(file)]), basename(file));
    const res = await fetch(`${url}/v1/extractions`, {
      method: 'POST',
      headers: { ...auth, prefer: 'respond-async' },
      body: form,
    });
    const text = await res.text();
    const body = JSON.parse(text) as { data?: Rec };
    if (!body.data)
      throw new Error(`${basename(file)}: create answered ${res.status} ${text.slice(0, 300)}`);
    return body.data;
  };

  return { url, key, call, settle, upload };
}
