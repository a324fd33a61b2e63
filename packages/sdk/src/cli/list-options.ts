import type { ListQuery, Page } from '../types.ts';
import { positiveInt } from './args.ts';

/** The options every `list` subcommand takes. */
export const listOptions = {
  page: { type: 'string' },
  limit: { type: 'string' },
  search: { type: 'string' },
  'start-date': { type: 'string' },
  'end-date': { type: 'string' },
  all: { type: 'boolean' },
} as const;

export const LIST_USAGE =
  '[--search S] [--start-date YYYY-MM-DD] [--end-date YYYY-MM-DD] [--page N] [--limit N] [--all]';

export function listQuery(values: {
  page?: string | undefined;
  limit?: string | undefined;
  search?: string | undefined;
  'start-date'?: string | undefined;
  'end-date'?: string | undefined;
}): ListQuery {
  const query: ListQuery = {};
  if (values.page !== undefined) query.page = positiveInt(values.page, 'page', 1);
  if (values.limit !== undefined) query.limit = positiveInt(values.limit, 'limit', 10);
  if (values.search !== undefined) query.search = values.search;
  if (values['start-date'] !== undefined) query.startDate = values['start-date'];
  if (values['end-date'] !== undefined) query.endDate = values['end-date'];
  return query;
}

/**
 * Prints records one JSON object a line: one page (`list`), or every page (`--all`, through the
 * SDK's iterator), so the output pipes into `jq` either way.
 */
export async function printRecords<T>(
  out: NodeJS.WritableStream,
  all: boolean,
  page: () => Promise<Page<T>>,
  every: () => AsyncIterable<T>,
): Promise<void> {
  if (all) {
    for await (const record of every()) out.write(`${JSON.stringify(record)}\n`);
    return;
  }
  for (const record of (await page()).data) out.write(`${JSON.stringify(record)}\n`);
}
