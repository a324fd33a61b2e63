import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileInside } from '@xt/sdk';
import { ToolInputError } from './errors.ts';

/**
 * The file a tool was asked to upload, when this server reads local files at all (stdio: yes;
 * HTTP: only with --allow-files), under the rules of `localFile`.
 */
export async function uploadableFile(
  requested: string,
  options: { cwd: string; allowFiles: boolean; filesRoot?: string | undefined },
): Promise<{ file: string; real: string }> {
  if (!options.allowFiles) {
    throw new ToolInputError(
      'path: this server does not read local files (start it with --allow-files); send text or a url.',
    );
  }
  return localFile(requested, options);
}

/**
 * The file `extract` was asked for (`file`, absolute, as asked: its name tells the type and
 * names the upload) and the real path to open. Under a files root, anything that leaves the
 * root, by `..`, an absolute path or a symbolic link, is refused whether it exists or not, as is
 * a hidden file or anything in a hidden folder below it, and relative paths start at the root.
 */
export async function localFile(
  requested: string,
  options: { cwd: string; filesRoot?: string | undefined },
): Promise<{ file: string; real: string }> {
  if (options.filesRoot === undefined) {
    const file = path.resolve(options.cwd, requested);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw new ToolInputError(`path: no such file: ${file}`);
    return { file, real: file };
  }
  const root = path.resolve(options.cwd, options.filesRoot);
  const file = path.resolve(root, requested);
  const found = await fileInside(root, requested);
  if (found.ok) {
    const hidden = hiddenPart(root, file) ?? hiddenPart(await realpath(root), found.real);
    if (hidden !== undefined)
      throw new ToolInputError(
        `path: ${requested} is hidden (${hidden} starts with a dot): this server reads no ` +
          'hidden file or folder under its root, such as .env or .data where keys live; name ' +
          'the folder itself with --files-root to share it.',
      );
    return { file, real: found.real };
  }
  if (found.reason === 'outside') {
    throw new ToolInputError(
      `path: ${requested} is outside ${root}, the only folder this server reads files from; ` +
        'give a path inside it (relative paths start there).',
    );
  }
  throw new ToolInputError(`path: no such file: ${file}`);
}

/**
 * The first part of `file` below `root` whose name starts with a dot, if any. The root itself is
 * whatever the operator named, dots and all; below it, dotfiles and dot-folders hold what the
 * working folder (the default root) should not hand a token holder: `.env`, `.data/` with the
 * development key, `.git/`, `.ssh/`, `.npmrc`. Both the path as asked and its real path are
 * looked at, so a link named plainly cannot lead into one.
 */
function hiddenPart(root: string, file: string): string | undefined {
  const parts = path.relative(root, file).split(path.sep);
  const at = parts.findIndex((part) => part.startsWith('.'));
  return at < 0 ? undefined : parts.slice(0, at + 1).join('/');
}

/** The files root as a real path, checked once at start so a typo stops the server, not a call. */
export async function checkFilesRoot(cwd: string, filesRoot: string): Promise<string> {
  const root = path.resolve(cwd, filesRoot);
  const real = await realpath(root).catch(() => undefined);
  if (!real || !(await stat(real)).isDirectory()) {
    throw new Error(`--files-root ${root} is not a folder`);
  }
  return real;
}
