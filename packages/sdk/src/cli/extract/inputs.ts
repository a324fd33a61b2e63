import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sourceTypeFor } from '../../source-type.ts';
import type { SourceType } from '../../types.ts';
import { UsageError } from '../command.ts';

/** One thing to extract from: a local file or a URL. */
export interface Input {
  /** As the output names it: the path relative to the working directory, or the URL. */
  source: string;
  type: SourceType;
  /** Absolute path of a local file. */
  path?: string;
  /** SHA-256 of the file's bytes, or of the URL: with the options, it makes the Idempotency-Key. */
  sha256: string;
}

function isUrl(arg: string): boolean {
  return /^https?:\/\//i.test(arg);
}

/**
 * Files, URLs and folders (walked recursively, hidden entries skipped) as inputs, in a stable
 * order. The type is `forced` when given, else told by the extension (PDFs, images, office
 * documents, spreadsheets, emails, text files; any other URL is a webpage). A folder's files of
 * no known extension are skipped and listed in `skipped`; a file named on the command line is
 * sent as `auto`, for the service to recognise by its content.
 */
export async function expandInputs(
  args: string[],
  cwd: string,
  forced: SourceType | undefined,
): Promise<{ inputs: Input[]; skipped: string[] }> {
  const inputs: Input[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  const add = async (absolute: string, fromFolder: boolean) => {
    if (seen.has(absolute)) return;
    seen.add(absolute);
    const source = path.relative(cwd, absolute) || absolute;
    const type = forced ?? sourceTypeFor(absolute, false) ?? (fromFolder ? undefined : 'auto');
    if (!type) return void skipped.push(source);
    inputs.push({ source, type, path: absolute, sha256: await hashFile(absolute) });
  };

  for (const arg of args) {
    if (isUrl(arg)) {
      if (seen.has(arg)) continue;
      seen.add(arg);
      const type = forced ?? sourceTypeFor(arg, true)!;
      inputs.push({ source: arg, type, sha256: sha256(arg) });
      continue;
    }
    const absolute = path.resolve(cwd, arg);
    const info = await stat(absolute).catch(() => null);
    if (!info) throw new UsageError(`${arg}: no such file or folder`);
    if (info.isDirectory()) {
      for (const file of await walk(absolute)) await add(file, true);
    } else {
      await add(absolute, false);
    }
  }
  return { inputs, skipped };
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await walk(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
