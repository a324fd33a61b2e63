import CFB from 'cfb';
import { craftedMsg } from '@xt/testkit/fixtures';
import { describe, expect, it } from 'vitest';
import { compoundFileProblem } from './compound-bounds.ts';
import { detectFormat } from './detect.ts';
import { isPasswordProtected } from './protection.ts';

/** A compound file as cfb writes one: honest by construction. */
function written(sizes: number[]): Buffer {
  const container = CFB.utils.cfb_new();
  sizes.forEach((size, i) =>
    CFB.utils.cfb_add(container, `part${i % 3}/s${i}`, Buffer.alloc(size, i)),
  );
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

describe('a compound file checked against its own size', () => {
  it('accepts honest files, small and large streams alike', () => {
    expect(compoundFileProblem(craftedMsg())).toBeNull();
    expect(compoundFileProblem(written([10, 5000, 64, 4095, 4096, 100_000]))).toBeNull();
    expect(compoundFileProblem(written(Array.from({ length: 300 }, (_, i) => i * 37)))).toBeNull();
  });

  it('refuses a stream declaring more bytes than the whole file', () => {
    const file = craftedMsg({ bodySize: 256 * 2 ** 20 });
    expect(compoundFileProblem(file)).toMatch(/declares 268435456 bytes, more than the whole file/);
  });

  it('refuses a chain that comes back to a sector it has been through', () => {
    expect(compoundFileProblem(craftedMsg({ bodySize: 6000, bodyLoops: true }))).toMatch(
      /revisits sector 4/,
    );
    expect(compoundFileProblem(craftedMsg({ subjectLoops: true }))).toMatch(
      /revisits small sector 0/,
    );
  });

  it('refuses a stream shorter than it declares, and a table past the end', () => {
    const honest = craftedMsg();
    const cut = honest.subarray(0, honest.length - 1024);
    expect(compoundFileProblem(cut)).toMatch(/past the end of the file/);
    const manyTables = Buffer.from(honest);
    manyTables.writeUInt32LE(0x7fffffff, 0x2c);
    expect(compoundFileProblem(manyTables)).toMatch(/declares 2147483647 allocation sectors/);
  });

  it('refuses a directory whose tree comes back to an entry', () => {
    const file = craftedMsg();
    // The body's entry (2) names the subject's (1) as its sibling: 1 → 2 → 1.
    file.writeUInt32LE(1, 512 * 2 + 256 + 0x48);
    expect(compoundFileProblem(file)).toMatch(/reaches entry 1 twice/);
  });

  it('refuses what is not a compound file at all', () => {
    expect(compoundFileProblem(Buffer.from('%PDF-1.7'))).toMatch(/not a compound file/);
  });
});

describe('recognising a compound file whose structure lies', () => {
  it('says it is damaged, without following its looping directory', async () => {
    const file = craftedMsg();
    file.writeUInt32LE(1, 512 * 2 + 256 + 0x48);
    const started = performance.now();
    const detected = await detectFormat({ bytes: file });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(detected).toEqual({
      format: null,
      found: expect.stringMatching(/^a damaged OLE compound file \(.*reaches entry 1 twice\)$/),
      damaged: true,
    });
    expect(isPasswordProtected(file, 'xls')).toBe(false);
  });
});
