import type { Db } from './client.ts';

/**
 * A query built and named once per database handle instead of on every call. On the hottest
 * paths (key authentication, the record reads) drizzle's SQL building was a fifth of the API's
 * CPU, and a named statement also spares PostgreSQL the parse and plan on every connection
 * after its first use (docs/performance.md). Each handle (the process's pool, or a test's own)
 * gets its own statement object; `build` must name its statement with `.prepare(name)`.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
