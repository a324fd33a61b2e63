import { spawn } from 'node:child_process';
import { chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ExtractionFailure } from '@xt/contract';

/*
 * XLS (Excel 97–2003's binary format) and ODS have no maintained JavaScript reader that keeps
 * formats and cached results; LibreOffice, which reads both as faithfully as anything, rewrites
 * them as XLSX, which the service then reads like any other (read-xlsx.ts). It also rewrites
 * XLSX files ExcelJS cannot take apart. It runs as the browser does (docs/security.md): with an
 * environment of its own (none of the service's secrets), a fresh profile per file (so nothing
 * one file set up is there for the next, and macros stay at the default of never running
 * unsigned ones), without network (a network namespace of its own when the worker is root, so
 * linked data and external references cannot be fetched), as an unprivileged user when the
 * worker is root, under an address-space bound and a deadline, its whole process group killed
 * when the deadline passes.
 *
 * Kept small and apart on purpose: the documents' converter is the one place LibreOffice is
 * run for DOCX and PPTX, and this one folds into it when that can convert to XLSX.
 */

export interface ConvertOptions {
  timeoutMs: number;
  /** Address space of the converter at most, in bytes. */
  maxMemoryBytes: number;
  /** Who LibreOffice runs as when this process is root (`nobody` by default). */
  user?: { uid: number; gid: number } | undefined;
  soffice?: string;
}

const SOFFICE = '/usr/bin/soffice';
const XLSX_FILTER = 'xlsx:Calc MS Excel 2007 XML';

/** Whether this process may enter a network namespace and change user (it is root). */
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function command(
  soffice: string,
  args: string[],
  opts: ConvertOptions,
): { file: string; args: string[] } {
  const bounded = ['prlimit', `--as=${opts.maxMemoryBytes}`, '--', soffice, ...args];
  if (!isRoot()) return { file: bounded[0]!, args: bounded.slice(1) };
  const user = opts.user ?? { uid: 65534, gid: 65534 };
  return {
    file: 'unshare',
    args: [
      '--net',
      '--',
      'setpriv',
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--no-new-privs',
      '--',
      ...bounded,
    ],
  };
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<{ code: number | null; stderr: string; timedOut: boolean }>((resolve) => {
    // Its own process group: soffice starts soffice.bin, and a hang is ended for both.
    const child = spawn(file, args, { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let timedOut = false;
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: err.message, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, timedOut });
    });
  });
}

/** The file rewritten as XLSX by LibreOffice; `from` is its format (the input's extension). */
export async function convertToXlsx(
  bytes: Buffer,
  from: 'xls' | 'ods' | 'xlsx',
  opts: ConvertOptions,
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'xt-sheet-'));
  try {
    const input = path.join(dir, `in.${from}`);
    const out = path.join(dir, 'out');
    await writeFile(input, bytes);
    await mkdir(out);
    if (isRoot()) {
      const user = opts.user ?? { uid: 65534, gid: 65534 };
      for (const p of [dir, input, out]) await chown(p, user.uid, user.gid);
    }
    const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dir, TMPDIR: dir, LANG: 'C.UTF-8' };
    const { file, args } = command(
      opts.soffice ?? SOFFICE,
      [
        `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
        '--headless',
        '--norestore',
        '--nolockcheck',
        '--convert-to',
        XLSX_FILTER,
        '--outdir',
        out,
        input,
      ],
      opts,
    );
    const result = await run(file, args, env, opts.timeoutMs);
    if (result.timedOut)
      throw new ExtractionFailure(
        'SOURCE_UNREADABLE',
        `The spreadsheet could not be converted within ${Math.round(opts.timeoutMs / 1000)} s.`,
      );
    const converted = await readFile(path.join(out, 'in.xlsx')).catch(() => undefined);
    if (!converted)
      throw new ExtractionFailure(
        'SOURCE_UNREADABLE',
        `The spreadsheet cannot be read (LibreOffice could not open it${result.code ? `, exit ${result.code}` : ''}).`,
      );
    return converted;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
