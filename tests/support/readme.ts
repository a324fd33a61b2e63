/**
 * README.md's runnable blocks, and a place to run them as a newcomer at the clone's root would.
 *
 * A fenced block right after a `<!-- readme-test: <kind> -->` line is runnable; no other is.
 * The kinds: `serve` (each line starts a long-running process), `run` (shell lines), `python`,
 * `mcp` (an MCP client's configuration). tests/e2e/readme.test.ts says how each is run.
 */
import { mkdtemp, readdir, readFile, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@xt/testkit';

export interface ReadmeBlock {
  kind: string;
  /** The block's language, as its fence names it. */
  lang: string;
  code: string;
}

export async function readmeBlocks(): Promise<ReadmeBlock[]> {
  const text = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const blocks: ReadmeBlock[] = [];
  for (const m of text.matchAll(/^<!-- readme-test: (\w+) -->\n\n```(\w+)\n([^]*?)^```$/gm)) {
    blocks.push({ kind: m[1]!, lang: m[2]!, code: m[3]! });
  }
  return blocks;
}

/**
 * A folder that looks like the clone's root: a link to each of its top-level entries but
 * `.data` (the test's own `DATA_DIR` goes there) and `.git`, so relative paths and `npx` work
 * as written while what the commands write stays out of the checkout.
 */
export async function scratchRoot(): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'xt-readme-'));
  for (const entry of await readdir(REPO_ROOT)) {
    if (entry === '.data' || entry === '.git') continue;
    await symlink(path.join(REPO_ROOT, entry), path.join(root, entry));
  }
  return root;
}
