import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XtError } from './errors.ts';
import { uploadBlob } from './uploads.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-uploads-test-'));
  await writeFile(path.join(dir, 'invoice.pdf'), '%PDF-1.7');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('uploadBlob from a path', () => {
  it('opens a file under its own name', async () => {
    const { blob, filename } = await uploadBlob({ path: path.join(dir, 'invoice.pdf') });
    expect([filename, blob.size]).toEqual(['invoice.pdf', 8]);
  });

  it('names the path it could not upload, and why', async () => {
    const missing = path.join(dir, 'nope.pdf');
    await expect(uploadBlob({ path: missing })).rejects.toThrow(
      new XtError(`cannot upload ${missing}: no such file`),
    );
    await expect(uploadBlob({ path: dir })).rejects.toThrow(
      new XtError(`cannot upload ${dir}: it is a folder, not a file`),
    );
  });
});
