/**
 * Column helpers the schema files share. Timestamps have millisecond precision: the API prints
 * milliseconds and orders by (created_at, id); keeping microseconds would make equal-looking
 * rows sort by invisible digits.
 */
import { customType, timestamp } from 'drizzle-orm/pg-core';

/** `'a', 'b'` for an `in (...)` check; the values are the registry's own names, never input. */
export const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export const ts = (name: string) =>
  timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});
