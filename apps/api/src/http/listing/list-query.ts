/**
 * Query parameters of the list routes (docs/api.md#pagination, docs/api.md#list-filters): `page`, `limit`, `startDate`, `endDate`,
 * `search`, and for extractions also `status` and `schema_id`.
 *
 * Values arrive as Express puts them in `req.query`: strings, arrays when a parameter is
 * repeated, nested objects with an extended parser. Anything but a single well-formed value is
 * a 422 on that parameter; an ambiguous repeated `page` must not silently pick one.
 */
import { z } from 'zod';
import {
  closestName,
  EXTRACTION_STATUSES,
  isUuid,
  type ExtractionStatus,
  type FieldError,
} from '@xt/contract';
import { validationError } from '../errors/errors.ts';
import { addUtcDays, parseCalendarDate } from './calendar-date.ts';
import { zodIssuesToFieldErrors } from '../errors/zod-errors.ts';
import { textProblem } from '../input/text-safety.ts';

export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
/** Keeps `offsetFor(page, MAX_LIMIT)` an exact integer; beyond it a page is simply invalid. */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_LIMIT);
export const MAX_SEARCH_CHARS = 255;

export interface ListQuery {
  page: number;
  limit: number;
  /** Start of the `startDate` day in UTC (inclusive bound on `createdAt`). */
  startDate?: Date;
  /** Start of the day after `endDate` in UTC (exclusive bound), so `endDate` is a whole day. */
  endDateExclusive?: Date;
  /** Trimmed; absent when empty. Match it literally: see `escapeLike`. */
  search?: string;
  /** Extractions only. */
  status?: ExtractionStatus;
  /** Extractions only; lower-cased. */
  schemaId?: string;
  /** The extraction list only: a split bundle's children (docs/split.md); lower-cased. */
  parentId?: string;
}

export interface ListQueryOptions {
  /** Also accept the extraction filters `status` and `schema_id`. */
  extraction?: boolean;
  /** Also accept `parent_id` (the extraction list, not the review queue). */
  parent?: boolean;
}

export type ListQueryResult = { ok: true; value: ListQuery } | { ok: false; errors: FieldError[] };

type Ctx = z.core.$RefinementCtx;

/**
 * A single string; `undefined` when absent; `null` after adding an issue saying why the value
 * is not one string.
 */
function single(name: string, value: unknown, ctx: Ctx): string | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return value;
  ctx.addIssue({
    code: 'custom',
    message: Array.isArray(value)
      ? `${name} must be given once, not ${value.length} times`
      : `${name} must be a single value`,
  });
  return null;
}

function integerParam(name: string, min: number, max: number, fallback: number) {
  const rule =
    max === MAX_PAGE ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  return z
    .unknown()
    .optional()
    .transform((value, ctx): number => {
      const text = single(name, value, ctx);
      if (text === null) return z.NEVER;
      if (text === undefined) return fallback;
      const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (!(n >= min && n <= max)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be ${rule}` });
        return z.NEVER;
      }
      return n;
    });
}

function dateParam(name: string) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): Date | undefined => {
      const text = single(name, value, ctx);
      if (text === null) return z.NEVER;
      if (text === undefined) return undefined;
      const date = parseCalendarDate(text);
      // Year 0 has no timestamp in PostgreSQL; the range is what both can represent.
      if (date && date.getUTCFullYear() < 1) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a date from 0001-01-01 to 9999-12-31`,
        });
        return z.NEVER;
      }
      if (!date) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a real calendar date in the form YYYY-MM-DD`,
        });
        return z.NEVER;
      }
      return date;
    });
}

const searchParam = z
  .unknown()
  .optional()
  .transform((value, ctx): string | undefined => {
    const text = single('search', value, ctx);
    if (text === null) return z.NEVER;
    if (text === undefined) return undefined;
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    const problem = textProblem(trimmed);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: `search ${problem}` });
      return z.NEVER;
    }
    if ([...trimmed].length > MAX_SEARCH_CHARS) {
      ctx.addIssue({
        code: 'custom',
        message: `search must be at most ${MAX_SEARCH_CHARS} characters long`,
      });
      return z.NEVER;
    }
    return trimmed;
  });

const statusParam = z
  .unknown()
  .optional()
  .transform((value, ctx): ExtractionStatus | undefined => {
    const text = single('status', value, ctx);
    if (text === null) return z.NEVER;
    if (text === undefined) return undefined;
    const status = EXTRACTION_STATUSES.find((s) => s === text);
    if (!status) {
      ctx.addIssue({
        code: 'custom',
        message: `status must be one of: ${EXTRACTION_STATUSES.join(', ')}`,
      });
      return z.NEVER;
    }
    return status;
  });

const uuidParam = (name: string) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx): string | undefined => {
      const text = single(name, value, ctx);
      if (text === null) return z.NEVER;
      if (text === undefined) return undefined;
      if (!isUuid(text)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a UUID` });
        return z.NEVER;
      }
      return text.toLowerCase();
    });
const schemaIdParam = uuidParam('schema_id');

const commonShape = {
  page: integerParam('page', 1, MAX_PAGE, DEFAULT_PAGE),
  limit: integerParam('limit', 1, MAX_LIMIT, DEFAULT_LIMIT),
  startDate: dateParam('startDate'),
  endDate: dateParam('endDate'),
  search: searchParam,
};

function dateOrder<T extends { startDate?: Date | undefined; endDate?: Date | undefined }>(
  schema: z.ZodType<T>,
) {
  return schema.refine((q) => !(q.startDate && q.endDate && q.startDate > q.endDate), {
    message: 'startDate must not be after endDate',
    path: ['startDate'],
    // Checked even when another parameter is invalid: one entry per problem.
    when: (payload) => {
      const v = payload.value as { startDate?: unknown; endDate?: unknown } | undefined;
      return v?.startDate instanceof Date && v.endDate instanceof Date;
    },
  });
}

const extractionShape = { ...commonShape, status: statusParam, schema_id: schemaIdParam };
const parentShape = { ...extractionShape, parent_id: uuidParam('parent_id') };

/** `GET /schemas` query. */
export const listQuerySchema = dateOrder(z.object(commonShape));

/** The review queue's query: the common parameters plus `status` and `schema_id`. */
export const extractionListQuerySchema = dateOrder(z.object(extractionShape));

/** `GET /extractions` query: those, and `parent_id` (docs/split.md). */
const parentListQuerySchema = dateOrder(z.object(parentShape));

/**
 * A parameter the route does not take is refused, not ignored: `?schemaId=` silently returning
 * every extraction unfiltered is a wrong answer that looks right.
 */
function unknownParameters(query: Record<string, unknown>, known: readonly string[]): FieldError[] {
  return Object.keys(query)
    .filter((name) => !known.includes(name))
    .map((name) => {
      const guess = closestName(name, known);
      const hint = guess ? ` Did you mean "${guess}"?` : '';
      return {
        field: name,
        message: `Unknown query parameter "${name}".${hint} Allowed parameters: ${known.join(', ')}.`,
      };
    });
}

type ParsedQuery = z.output<typeof listQuerySchema> &
  Partial<z.output<typeof parentListQuerySchema>>;

/**
 * Validates a list query. On success the dates are already turned into the half-open UTC range
 * `[startDate, endDateExclusive)` that the repositories filter `createdAt` by.
 */
export function parseListQuery(
  query: Record<string, unknown>,
  options: ListQueryOptions = {},
): ListQueryResult {
  const shape = options.parent ? parentShape : options.extraction ? extractionShape : commonShape;
  const result = options.parent
    ? parentListQuerySchema.safeParse(query)
    : options.extraction
      ? extractionListQuerySchema.safeParse(query)
      : listQuerySchema.safeParse(query);
  const unknown = unknownParameters(query, Object.keys(shape));
  if (!result.success || unknown.length > 0)
    return {
      ok: false,
      errors: [...(result.success ? [] : zodIssuesToFieldErrors(result.error.issues)), ...unknown],
    };
  const q: ParsedQuery = result.data;
  const value: ListQuery = { page: q.page, limit: q.limit };
  if (q.startDate) value.startDate = q.startDate;
  // 9999-12-31, the last day PostgreSQL and the API share, has no day after it: no upper bound
  // is the same filter.
  const last =
    q.endDate?.getUTCFullYear() === 9999 &&
    q.endDate.getUTCMonth() === 11 &&
    q.endDate.getUTCDate() === 31;
  if (q.endDate && !last) value.endDateExclusive = addUtcDays(q.endDate, 1);
  if (q.search !== undefined) value.search = q.search;
  if (q.status !== undefined) value.status = q.status;
  if (q.schema_id !== undefined) value.schemaId = q.schema_id;
  if (q.parent_id !== undefined) value.parentId = q.parent_id;
  return { ok: true, value };
}

/** `parseListQuery` for route handlers: the value, or a 422 HttpError with every problem. */
export function assertListQuery(
  query: Record<string, unknown>,
  options: ListQueryOptions = {},
): ListQuery {
  const result = parseListQuery(query, options);
  if (!result.ok) throw validationError(result.errors);
  return result.value;
}

/**
 * Escapes `\`, `%` and `_` so user text matches literally in `ILIKE $1 ESCAPE '\'`
 * (docs/api.md#list-filters: those characters in `search` are literal). Wrap the result in `%…%` yourself.
 */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%<escaped>%`: the `ILIKE … ESCAPE '\'` pattern for a case-insensitive substring search. */
export function containsPattern(search: string): string {
  return `%${escapeLike(search)}%`;
}
