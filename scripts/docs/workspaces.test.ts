import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@xt/launcher/config';
import { readTable, renderTable, workspaceRows } from './workspaces.ts';

describe("README.md's table of workspaces", () => {
  it('is every workspace with its own description (npm run docs:workspaces writes it)', () => {
    const rows = workspaceRows(REPO_ROOT);
    expect(rows.every((r) => r.description.length > 0)).toBe(true);
    expect(readTable(readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'))).toEqual(rows);
  });

  it('reads back what it renders, a pipe in a description included', () => {
    const rows = [{ folder: 'packages/x', name: '@xt/x', description: 'a | b, and `c`' }];
    const readme = `<!-- workspaces:start -->\n\n${renderTable(rows)}\n\n<!-- workspaces:end -->\n`;
    expect(readTable(readme)).toEqual(rows);
  });
});
