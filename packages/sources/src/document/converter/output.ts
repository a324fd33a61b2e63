import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * The converter's output, read only if it is what a conversion writes: a regular file of the
 * converter's user, not a link, at most as large as the converter may write; null otherwise or
 * when there is none. A converter that misbehaves chooses what lies at that name: a FIFO would
 * hang the job on its read, a link would have the worker (root, when it switches users) read a
 * file the converter itself may not and hand it back as the document. Opening without following
 * a link and without blocking, then looking at what was opened, leaves no moment to swap it.
 */
export async function readOutput(
  file: string,
  owner: number,
  maxBytes: number,
): Promise<Buffer | null> {
  const handle = await open(
    file,
    constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  ).catch(() => null);
  if (!handle) return null;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.uid !== owner || info.size > maxBytes) return null;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
