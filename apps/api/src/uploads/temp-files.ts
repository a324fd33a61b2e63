import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** A temp file not written to for this long belongs to no live request. */
const STALE_MS = 60 * 60 * 1000;

/**
 * Where multipart uploads wait between arriving and being stored. Names are random; the
 * client's file name never touches the file system.
 */
export class UploadTempDir {
  constructor(readonly dir: string) {}

  /** Creates the folder and clears files that a crashed process left behind. */
  async prepare(now = Date.now()): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (const name of await readdir(this.dir)) {
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => null);
      if (info?.isFile() && now - info.mtimeMs > STALE_MS) await rm(file, { force: true });
    }
  }

  /** A fresh path; the folder is made again if a tmp cleaner removed it. */
  async newPath(): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    return path.join(this.dir, `${randomUUID()}.upload`);
  }

  async remove(file: string): Promise<void> {
    await rm(file, { force: true });
  }
}
