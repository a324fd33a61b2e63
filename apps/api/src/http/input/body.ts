import express, { type RequestHandler } from 'express';
import type { FieldError } from '@xt/contract';
import { HttpError, validationError } from '../errors/errors.ts';
import { unstorableText } from './text-safety.ts';

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Refuses a body of a type the route does not take (415) before anything reads it. A request
 * without a body passes, and the route sees `{}` so it can name the missing fields (422).
 */
export function acceptBody(types: string[]): RequestHandler {
  return (req, _res, next) => {
    if (hasBody(req) && !req.is(types)) {
      next(
        new HttpError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          `Content-Type must be one of: ${types.join(', ')}.`,
        ),
      );
      return;
    }
    next();
  };
}

export const defaultEmptyBody: RequestHandler = (req, _res, next) => {
  req.body ??= {};
  next();
};

export function jsonBody(limit: string): RequestHandler[] {
  return [
    acceptBody(['application/json', 'application/*+json']),
    express.json({ limit, type: ['application/json', 'application/*+json'] }),
    defaultEmptyBody,
  ];
}

/**
 * Deepest nesting a body may have. The deepest structure a schema may declare is far shallower;
 * a body of 100,000 nested arrays parses fine but would exhaust the stack of every check that
 * walks it (a 500), so it is refused before any of them runs.
 */
export const MAX_BODY_DEPTH = 100;

/** True when `value` nests deeper than `limit` levels; an explicit stack, so it cannot overflow. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * A JSON body must be an object (else a 422 on `body`). Fields nested deeper than the service
 * reads are set aside, each with its error: no check may walk them, but every other field is
 * still checked, so one answer names them all.
 */
function checkedShape(body: unknown): { object: Record<string, unknown>; tooDeep: FieldError[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(422, 'VALIDATION_FAILED', 'The request is invalid.', {
      fields: [{ field: 'body', message: 'the request body must be a JSON object' }],
    });
  const object: Record<string, unknown> = {};
  const tooDeep: FieldError[] = [];
  for (const [field, value] of Object.entries(body)) {
    if (nestsDeeperThan(value, MAX_BODY_DEPTH - 1))
      tooDeep.push({ field, message: `${field} nests deeper than ${MAX_BODY_DEPTH} levels` });
    else object[field] = value;
  }
  return { object, tooDeep };
}

/**
 * Text PostgreSQL cannot store (U+0000) and lone surrogates, which have no UTF-8 form
 * (docs/input-normalisation.md), outside the fields named in `checkedByRoute`, whose own
 * validation reports it together with every other problem in them (metadata).
 */
function unstorableOutside(
  body: Record<string, unknown>,
  checkedByRoute: readonly string[],
): FieldError[] {
  const routeChecks = (field: string) =>
    checkedByRoute.some((name) => field === name || field.startsWith(`${name}.`));
  return unstorableText(body).filter((e) => !routeChecks(e.field));
}

/**
 * Runs a route's own parse over a JSON body, which must be an object (arrays and scalars are a
 * 422 on `body`), and answers one 422 naming every problem:
 * fields nested too deep (left out of the parse) and text that cannot be stored beside the
 * route's own field errors, so a client fixing one field is not sent back again for another
 * that was wrong all along.
 */
export function parseBodyObject<T>(
  body: unknown,
  parse: (object: Record<string, unknown>) => T,
  checkedByRoute: readonly string[] = [],
): T {
  const { object, tooDeep } = checkedShape(body);
  const refused = [...tooDeep, ...unstorableOutside(object, checkedByRoute)];
  if (refused.length === 0) return parse(object);
  const together = (err: unknown): HttpError => {
    if (!(err instanceof HttpError) || err.status !== 422 || !err.fields)
      return validationError(refused);
    // A too-deep field is missing from what the parse saw: its "required" is not news.
    const named = new Set(refused.map((e) => e.field));
    return validationError([...refused, ...err.fields.filter((f) => !named.has(f.field))]);
  };
  let parsed: T;
  try {
    parsed = parse(object);
  } catch (err) {
    throw together(err);
  }
  if (parsed instanceof Promise)
    return parsed.then(
      () => Promise.reject(validationError(refused)),
      (err: unknown) => Promise.reject(together(err)),
    ) as T;
  throw validationError(refused);
}

/**
 * A multipart body needs a non-empty boundary to be read at all: without one it is malformed
 * (400), not a form with missing fields.
 */
export const multipartBoundary: RequestHandler = (req, _res, next) => {
  const type = req.headers['content-type'] ?? '';
  if (/^\s*multipart\//i.test(type) && !/;\s*boundary\s*=\s*("[^"]+"|[^\s;"]+)/i.test(type)) {
    next(new HttpError(400, 'MALFORMED_BODY', 'The multipart body has no boundary.'));
    return;
  }
  next();
};
