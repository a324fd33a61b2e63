import { withoutNamedStatements, type Db } from './client.ts';

/**
 * A query built and named once per database handle instead of on every call. On the hottest
 * paths (key authentication, the record reads) drizzle's SQL building was a fifth of the API's
 * CPU, and a named statement also spares PostgreSQL the parse and plan on every connection
 * after its first use (docs/performance.md). Each handle (the process's pool, or a test's own)
 * gets its own statement object; `build` must name its statement with `.prepare(name)`, using
 * the name it is given: empty (an unnamed statement, parsed each time) for a handle made with
 * `preparedStatements: false`, since a transaction-mode pooler may run the next execution on
 * a server connection that never saw the statement (docs/scaling.md#pgbouncer).
 */
export function preparedPerDb<T>(name: string, build: (db: Db, name: string) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db, withoutNamedStatements.has(db) ? '' : name);
      built.set(db, statement);
    }
    return statement;
  };
}
