/** The driver's error inside `err` (drizzle wraps it as `cause`), when there is one. */
function driverError(
  err: unknown,
): { code?: unknown; column?: unknown; constraint?: unknown } | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    if (typeof (current as { code?: unknown }).code === 'string') return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when `err` is PostgreSQL refusing a null in `column` (SQLSTATE 23502). */
export function isNotNullViolation(err: unknown, column: string): boolean {
  const found = driverError(err);
  return found?.code === '23502' && found.column === column;
}

/** True when `err` is PostgreSQL refusing a second row for the unique index `index` (23505). */
export function isUniqueViolation(err: unknown, index: string): boolean {
  const found = driverError(err);
  return found?.code === '23505' && found.constraint === index;
}

/** True when `err` is PostgreSQL refusing a row whose parent `constraint` names is gone (23503). */
export function isForeignKeyViolation(err: unknown, constraint: string): boolean {
  const found = driverError(err);
  return found?.code === '23503' && found.constraint === constraint;
}
