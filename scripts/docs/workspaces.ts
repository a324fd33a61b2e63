/**
 * README.md's table of workspaces, made from each workspace's own `description` in its
 * package.json, so a workspace added, removed or re-purposed changes the table with it:
 * `npm run docs:workspaces` writes it, and scripts/docs/workspaces.test.ts fails when they differ.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WorkspaceRow {
  folder: string;
  name: string;
  description: string;
}

const START = '<!-- workspaces:start';
const END = '<!-- workspaces:end -->';

/** The workspaces the root package.json names (`apps/*`, `packages/*`, `tests`), in that order. */
export function workspaceRows(root: string): WorkspaceRow[] {
  const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  const folders = workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(path.join(root, pattern.slice(0, -2)))
          .sort()
          .map((name) => `${pattern.slice(0, -2)}/${name}`)
      : [pattern],
  );
  return folders
    .filter((folder) => existsSync(path.join(root, folder, 'package.json')))
    .map((folder) => {
      const pkg = JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')) as {
        name: string;
        description?: string;
      };
      return { folder, name: pkg.name, description: pkg.description ?? '' };
    });
}

export function renderTable(rows: readonly WorkspaceRow[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return [
    '| Workspace | Package | What it holds |',
    '| --- | --- | --- |',
    ...rows.map((r) => `| \`${r.folder}/\` | \`${r.name}\` | ${cell(r.description)} |`),
  ].join('\n');
}

/** The rows of the generated table as README.md has them (however prettier aligned them). */
export function readTable(readme: string): WorkspaceRow[] {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) return [];
  return readme
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [folder = '', name = '', description = ''] = line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim().replaceAll('\\|', '|'));
      return {
        folder: folder.replace(/^`|\/`$/g, ''),
        name: name.replaceAll('`', ''),
        description,
      };
    });
}

function write(root: string): void {
  const file = path.join(root, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section`);
  const opening = readme.slice(start, readme.indexOf('\n', start) + 1);
  const table = renderTable(workspaceRows(root));
  writeFileSync(file, `${readme.slice(0, start)}${opening}\n${table}\n\n${readme.slice(end)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  write(fileURLToPath(new URL('../..', import.meta.url)));
