/**
 * Every table has one owner (docs/architecture.md#who-owns-each-table): the map ESLint holds
 * (`TABLE_OWNERS` in eslint.config.js) names each table `@xt/db` exports exactly once, and the
 * page's table says the same owner for each. A table added without an owner would be open to
 * every workspace, which is what the map is there to stop.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as db from '@xt/db';
import { REPO_ROOT } from '@xt/launcher/config';

const { TABLE_OWNERS } = (await import(
  pathToFileURL(path.join(REPO_ROOT, 'eslint.config.js')).href
)) as { TABLE_OWNERS: Record<string, string[]> };

// drizzle marks a table object with its SQL name under this symbol (what getTableName reads).
const NAME = Symbol.for('drizzle:Name');
const tables = new Map(
  Object.entries(db).flatMap(([exported, value]) => {
    const name = (value as unknown as Record<symbol, unknown> | null)?.[NAME];
    return typeof name === 'string' ? [[exported, name] as const] : [];
  }),
);

describe('the owner of each table', () => {
  it('is one workspace for every table @xt/db exports', () => {
    const owned = Object.values(TABLE_OWNERS).flat();
    expect(owned.toSorted()).toEqual([...tables.keys()].sort());
    expect(new Set(owned).size).toBe(owned.length);
  });

  it('is the one docs/architecture.md gives', () => {
    const page = readFileSync(path.join(REPO_ROOT, 'docs/architecture.md'), 'utf8');
    const section = page.slice(page.indexOf('## Who owns each table'));
    const documented = new Map<string, string>();
    for (const row of section.matchAll(/^\| ([^|]+) \| `([^`]+)` +\|/gm)) {
      for (const table of row[1]!.matchAll(/`(\w+)`/g)) documented.set(table[1]!, row[2]!);
    }
    const expected = new Map(
      Object.entries(TABLE_OWNERS).flatMap(([owner, names]) =>
        names.map((n) => [tables.get(n)!, owner] as const),
      ),
    );
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(expected));
  });
});
