/**
 * The files and folders the docs name, checked to exist: README.md, docs/ and the workspaces'
 * READMEs walk the code by its paths (docs/architecture.md names a file per step), and a file
 * renamed or split leaves the walk pointing at nothing. Checked: every `code span` that is a
 * path from a top-level folder of the repository, and every relative Markdown link.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@xt/launcher/config';

// The repository's own folders: not node_modules, nor the state a running service keeps in
// `.data/` (named by the docs, made at run time).
const TOP = readdirSync(REPO_ROOT, { withFileTypes: true })
  .filter(
    (entry) =>
      entry.isDirectory() &&
      entry.name !== 'node_modules' &&
      (!entry.name.startsWith('.') || entry.name === '.ci'),
  )
  .map((entry) => `${entry.name}/`);

function docs(): string[] {
  const inFolder = (folder: string) =>
    existsSync(path.join(REPO_ROOT, folder))
      ? readdirSync(path.join(REPO_ROOT, folder))
          .filter((name) => name.endsWith('.md'))
          .map((name) => path.join(folder, name))
      : [];
  const workspaces = ['apps', 'packages', 'clients'].flatMap((parent) =>
    readdirSync(path.join(REPO_ROOT, parent))
      .map((name) => path.join(parent, name, 'README.md'))
      .filter((file) => existsSync(path.join(REPO_ROOT, file))),
  );
  return ['README.md', ...inFolder('docs'), ...workspaces];
}

/** A path as written, without an anchor or a line number, if it names something to check. */
function checkable(written: string): string | undefined {
  const bare = written.split('#')[0]!.replace(/:\d+(-\d+)?$/, '');
  // Placeholders and patterns name no one file; build output (`dist/`) is not in a clone until
  // `npm run build` makes it, so a fresh clone's test run would fail on it.
  if (bare === '' || /[*<>{}…$]/.test(bare) || /^[a-z]+:/.test(bare)) return undefined;
  if (/(^|\/)dist(\/|$)/.test(bare)) return undefined;
  return bare;
}

function named(doc: string): string[] {
  const text = readFileSync(path.join(REPO_ROOT, doc), 'utf8');
  const here = path.dirname(doc);
  const missing: string[] = [];
  for (const [, span] of text.matchAll(/`([^`\s]+)`/g)) {
    const target = checkable(span!);
    if (!target || !TOP.some((top) => target.startsWith(top))) continue;
    // A workspace's README may name its own files from its folder.
    if (
      ![REPO_ROOT, path.join(REPO_ROOT, here)].some((base) => existsSync(path.join(base, target)))
    )
      missing.push(span!);
  }
  for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = checkable(link!);
    if (!target) continue;
    if (!existsSync(path.join(REPO_ROOT, here, target))) missing.push(link!);
  }
  return missing;
}

describe('paths the docs name', () => {
  it.each(docs())('%s names only files and folders that exist', (doc) => {
    expect(named(doc)).toEqual([]);
  });
});
