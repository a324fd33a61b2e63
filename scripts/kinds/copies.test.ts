import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@xt/launcher/config';
import { readCopy, renderCopies } from './copies.ts';

describe("the SDK's and the Python client's copies of the registry of source kinds", () => {
  it('are what the registry writes (npm run kinds:copies writes them)', async () => {
    for (const [file, text] of Object.entries(await renderCopies(REPO_ROOT)))
      expect(readCopy(REPO_ROOT, file), `${file} is stale: run npm run kinds:copies`).toBe(text);
  });
});
