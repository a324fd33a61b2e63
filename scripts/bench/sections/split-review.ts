/**
 * Section 16's last figure: the time from a review's correction to its test case, `xt reviews
 * export` run as a person would until the case file exists.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { REPO_ROOT } from '../lib/stack.ts';
import type { Rec, Service } from './split-service.ts';

export interface ReviewFigure {
  /** whose correction: a split child, or an ordinary upload when a child's was not exported */
  of: string;
  /** the review's POST alone */
  reviewMs: number;
  /** from sending the review until the case file existed */
  totalMs: number;
  /** each `xt reviews export` run, in order */
  exportMs: number[];
  /** what an export said it left out (standard error), if anything */
  skipped: string;
  /** the case as written: its expected output holds the correction; its source's pages */
  correctionInCase: boolean;
  casePages: number | null;
  /** the reviewed extraction's own pages (a split child's `pages`), null for a whole file */
  documentPages: number | null;
}

/**
 * Approves extraction `id` with a correction, then runs `xt reviews export` (as a person
 * would, a new process each time) until the case file for it exists: at most three runs, as
 * the approval is written before its answer and the first export should already have it.
 */
export async function reviewToCase(
  { call, url, key }: Service,
  id: string,
  of: string,
  schemaId: string,
): Promise<ReviewFigure | { notWritten: string }> {
  const rec = await call<
    Rec & { result: Record<string, unknown>; pages?: { from: number; to: number } }
  >('GET', `/v1/extractions/${id}`);
  if (rec.review?.status !== 'needs_review')
    throw new Error(`${of} ${id} is not queued for review: ${JSON.stringify(rec.review)}`);
  const out = mkdtempSync(join(tmpdir(), 'xt-bench-review-'));
  try {
    const written = () =>
      existsSync(join(out, 'cases'))
        ? readdirSync(join(out, 'cases')).find((f) => f.startsWith(`${id}.`))
        : undefined;
    const corrected = `${String(rec.result.invoice_number)}-R`;
    const t0 = performance.now();
    await call('POST', `/v1/extractions/${id}/review`, {
      decision: 'approve',
      corrections: { '/invoice_number': corrected },
      note: 'bench §16',
    });
    const reviewMs = performance.now() - t0;
    const exportMs: number[] = [];
    let skipped = '';
    while (!written() && exportMs.length < 3) {
      const t = performance.now();
      const { code, stderr } = await xt(['reviews', 'export', '--schema', schemaId, '--out', out], {
        XT_BASE_URL: url,
        XT_API_KEY: key,
      });
      exportMs.push(performance.now() - t);
      // Its summary ("wrote 1 cases to …") goes to standard error too: keep the rest.
      skipped = stderr
        .split('\n')
        .filter((line) => line.trim() && !line.startsWith('wrote '))
        .join(' ');
      if (code !== 0) throw new Error(`xt reviews export exited ${code}: ${skipped}`);
    }
    const file = written();
    if (!file) return { notWritten: skipped || 'no reason given' };
    const totalMs = performance.now() - t0;
    // Is the case the reviewed document, corrected? (What a test case is for.)
    const expected = JSON.parse(
      await readFile(join(out, 'expected', `${id}.json`), 'utf8'),
    ) as Record<string, unknown>;
    const casePages = file.endsWith('.pdf')
      ? (await PDFDocument.load(await readFile(join(out, 'cases', file)))).getPageCount()
      : null;
    return {
      of,
      reviewMs,
      totalMs,
      exportMs,
      skipped,
      correctionInCase: expected.invoice_number === corrected,
      casePages,
      documentPages: rec.pages ? rec.pages.to - rec.pages.from + 1 : null,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** `xt` as a person runs it from the checkout (packages/sdk/bin/xt.js, the sources via tsx). */
function xt(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'packages/sdk/bin/xt.js'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}
