import { expect, it } from 'vitest';
import type { Db } from './client.ts';
import { preparedPerDb } from './prepared.ts';

it('builds a statement once per database handle, and separately for each handle', () => {
  const built: Db[] = [];
  const statement = preparedPerDb((db) => {
    built.push(db);
    return { for: db };
  });
  const first = {} as Db;
  const second = {} as Db;
  expect(statement(first)).toBe(statement(first));
  expect(statement(second).for).toBe(second);
  expect(built).toEqual([first, second]);
});
