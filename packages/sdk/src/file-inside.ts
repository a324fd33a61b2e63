import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export type FileInside =
  { ok: true; real: string } | { ok: false; reason: 'outside' | 'missing' | 'not-a-file' };

/**
 * `requested` (relative to `root`, or absolute) as the real path of a regular file inside
 * `root` once every symbolic link on the way is followed; else why not. A path that leaves the
 * root is `outside` whether or not it exists, so a refusal tells nothing about the disk beyond
 * it. Hard links cannot be told apart from the file itself and are the root owner's to avoid.
 * The caller should open `real`, not `requested`, so a link changed afterwards is not followed.
 */
export async function fileInside(root: string, requested: string): Promise<FileInside> {
  const realRoot = await realpath(root);
  const wanted = path.resolve(realRoot, requested);
  const real = await realpath(wanted).catch(() => undefined);
  if (!isInside(realRoot, real ?? wanted)) return { ok: false, reason: 'outside' };
  if (real === undefined) return { ok: false, reason: 'missing' };
  const info = await stat(real).catch(() => undefined);
  if (!info?.isFile()) return { ok: false, reason: 'not-a-file' };
  return { ok: true, real };
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
