import { expect, it } from 'vitest';
import { createDb, type Db } from './client.ts';
import { preparedPerDb } from './prepared.ts';

it('builds a statement once per database handle, and separately for each handle', () => {
  const built: Db[] = [];
  const statement = preparedPerDb('a_statement', (db) => {
    built.push(db);
    return { for: db };
  });
  const first = {} as Db;
  const second = {} as Db;
  expect(statement(first)).toBe(statement(first));
  expect(statement(second).for).toBe(second);
  expect(built).toEqual([first, second]);
});

it('names the statement unless the handle was made without named statements', async () => {
  const statement = preparedPerDb('a_statement', (_db, name) => name);
  const named = createDb('postgres://127.0.0.1:1/none');
  const unnamed = createDb('postgres://127.0.0.1:1/none', { preparedStatements: false });
  expect(statement(named.db)).toBe('a_statement');
  expect(statement(unnamed.db)).toBe('');
  await Promise.all([named.close(), unnamed.close()]);
});
