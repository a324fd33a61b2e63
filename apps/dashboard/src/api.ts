/**
 * The one way pages talk to the server: JSON under /dashboard/api, the session cookie sent by
 * the browser, the CSRF token added to every mutation. Errors keep the API's envelope: a message
 * and, for 422, one entry per field, named by the API's own paths.
 */
import type { FieldError, Page } from '@xt/sdk';

export type { FieldError, Page };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: FieldError[] = [],
    readonly code?: string,
  ) {
    super(message);
  }
}

const BASE = '/dashboard/api';
let csrfToken = '';
let onSignedOut: () => void = () => {};

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when the server says the session is gone, so the app can show the sign-in page. */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

interface Envelope<T> {
  status: boolean;
  message?: string;
  data?: T;
  errors?: FieldError[];
  code?: string;
}

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const init: RequestInit = { method, headers: { ...headers }, credentials: 'same-origin' };
  const h = init.headers as Record<string, string>;
  if (method !== 'GET') h['x-csrf-token'] = csrfToken;
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    h['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(BASE + path, init);
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check your connection and retry.');
  }
  let payload: Envelope<T> | undefined;
  try {
    payload = (await res.json()) as Envelope<T>;
  } catch {
    payload = undefined;
  }
  if (res.ok && payload?.status) return payload.data as T;
  if (res.status === 401 && path !== '/session') onSignedOut();
  const fields = payload?.errors ?? [];
  const message =
    payload?.message ??
    (fields.length ? 'Please correct the highlighted fields.' : `Request failed (${res.status}).`);
  throw new ApiError(res.status, message, fields, payload?.code);
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
    request<T>('POST', path, body ?? {}, headers),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** A query string from the values that are set. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The errors for one field, and (with `nested`) for everything under it. */
export function errorsFor(fields: FieldError[], name: string): string[] {
  return fields.filter((f) => f.field === name).map((f) => f.message);
}
