import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readSources } from './bundle-files.ts';
import {
  bundlePages,
  expectedSplit,
  planBundles,
  planProblems,
  type SourceDocument,
} from './bundle-plan.ts';

const DATASETS = fileURLToPath(new URL('../../datasets/', import.meta.url));

const source = (file: string, cls: 'invoice' | 'statement', pages: number, scanned = false) => ({
  file,
  class: cls,
  pages,
  scanned,
});
const invoice = (n: number) => source(`t/${n}.pdf`, 'invoice', 1);
const scan = (n: number) => source(`s/${n}.jpg`, 'invoice', 1, true);
const statement = (pages: number) => source(`st/${pages}.pdf`, 'statement', pages);

describe('bundle plan', () => {
  it('numbers each document’s pages after the ones before it', () => {
    const bundle = { name: 'b', parts: [statement(3), invoice(1), scan(1), statement(12)] };
    expect(expectedSplit(bundle).documents).toEqual([
      { class: 'statement', pages: { from: 1, to: 3 } },
      { class: 'invoice', pages: { from: 4, to: 4 } },
      { class: 'invoice', pages: { from: 5, to: 5 } },
      { class: 'statement', pages: { from: 6, to: 17 } },
    ]);
    expect(bundlePages(bundle)).toBe(17);
  });

  it('names what a plan lacks', () => {
    const dull = Array.from({ length: 20 }, (_, i) => ({
      name: `b${i}`,
      parts: [invoice(1), statement(3)],
    }));
    const problems = planProblems(dull);
    expect(problems).toContain('fewer than 5 bundles with a scanned page');
    expect(problems).toContain('fewer than 1 bundles with two statements in a row');
    expect(problems).toContain('fewer than 1 bundles of 100 pages or more');
    expect(problems).not.toContain('fewer than 1 bundles opening with an invoice');
    expect(planProblems([{ name: 'one', parts: [invoice(1)] }])).toContain(
      'one holds 1 documents, not 2 to 6',
    );
  });

  it('plans the same bundles from the same seed, every promise kept', () => {
    const sources: SourceDocument[] = [
      ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => [invoice(n), scan(n)]),
      statement(1),
      statement(3),
      statement(12),
      statement(48),
    ];
    const plan = planBundles(sources);
    expect(planProblems(plan)).toEqual([]);
    expect(planBundles(sources)).toEqual(plan);
    expect(planBundles(sources, 7)).not.toEqual(plan);
  });

  it('matches the committed data set: its plan, its expected files, its page counts', async () => {
    const plan = planBundles(await readSources(DATASETS));
    const dir = path.join(DATASETS, 'bundles');
    expect((await readdir(path.join(dir, 'cases'))).sort()).toEqual(
      plan.map((b) => `${b.name}.pdf`),
    );
    for (const bundle of plan) {
      const expected = JSON.parse(
        await readFile(path.join(dir, 'expected', `${bundle.name}.json`), 'utf8'),
      ) as unknown;
      expect(expected, bundle.name).toEqual(expectedSplit(bundle));
      const pdf = await PDFDocument.load(
        await readFile(path.join(dir, 'cases', `${bundle.name}.pdf`)),
      );
      expect(pdf.getPageCount(), bundle.name).toBe(bundlePages(bundle));
    }
  });
});
