import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The text of an image, read with the `tesseract` CLI (Debian's tesseract-ocr): how the oracle
 * "sees" an image the service sent, so that what rasterising and downscaling lose shows up.
 */
export async function ocrImage(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stand-in-ocr-'));
  try {
    const file = path.join(dir, 'image');
    await writeFile(file, bytes);
    // psm 6: one uniform block of text keeps table rows on their lines.
    const { stdout } = await run('tesseract', [file, 'stdout', '--psm', '6'], {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 60_000,
    });
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
