import { constants } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { access, chmod, mkdir, mkdtemp, rmdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { ExtractionFailure, FORMATS } from '@xt/contract';
import { pdfExportTarget, type DocumentFormat } from '../export-filter.ts';
import type { FormatName } from '@xt/contract';
import { converterEnvironment } from './environment.ts';
import { readOutput } from './output.ts';
import { writeProfile } from './profile.ts';
import { runGroup, type GroupResult } from './run-group.ts';
import { createLauncherSandbox } from './launcher-sandbox.ts';
import { createSandbox, type ConverterIsolation, type Sandbox } from './sandbox.ts';
import type { SystemUser } from '../../isolation/system-user.ts';

/** Debian's LibreOffice (libreoffice-*-nogui). */
export const DEFAULT_SOFFICE = '/usr/bin/soffice';

export interface DocumentConverterOptions {
  /** LibreOffice's `soffice` (CONVERTER_PATH); default Debian's. */
  executable?: string | undefined;
  /**
   * Who the converter runs as when the worker is root or has a launcher (CONVERTER_USER, a
   * comma-separated list for a user per conversion at once); default `nobody`.
   */
  user?: string | undefined;
  /** The helper launcher's socket (HELPER_LAUNCHER): conversions are started by it. */
  launcher?: string | undefined;
  /** Address space the converter may map, in MiB (CONVERT_MAX_MEMORY_MB). */
  memoryMb: number;
  /** A conversion still running after this is killed, with every process it started. */
  timeoutMs: number;
  /** Conversions at once in this process (CONVERT_CONCURRENCY). */
  concurrency: number;
  /** The process's environment; the converter gets only its harmless part (environment.ts). */
  environment: Readonly<Record<string, string | undefined>>;
  /** Only tests turn the network namespace off, to show what the profile holds back alone. */
  network?: 'isolated' | 'shared';
  /** No conversion at all where no network namespace can be made (CONVERT_REQUIRE_ISOLATION). */
  requireIsolation?: boolean | undefined;
  /** Where a failed conversion's last output goes (LibreOffice's own account of a crash). */
  logger?: Pick<Logger, 'warn'> | undefined;
}

export interface DocumentConverter {
  /**
   * The document's pages as a PDF, laid out by LibreOffice (export-filter.ts says what the
   * export includes). Fails as the extraction should: SOURCE_UNREADABLE when LibreOffice cannot
   * read the file or dies on it, TIMEOUT past the deadline, SOURCE_UNSUPPORTED when this worker
   * cannot convert at all. `notesPages: false` leaves a presentation's notes pages out.
   */
  convertToPdf(
    bytes: Uint8Array,
    format: DocumentFormat,
    opts?: { signal?: AbortSignal | undefined; notesPages?: boolean | undefined },
  ): Promise<Buffer>;
  /**
   * A spreadsheet rewritten as XLSX by LibreOffice's Calc (XLS and ODS, which no maintained
   * JavaScript reader takes with their formats and cached results), failing as convertToPdf does.
   */
  convertToXlsx(
    bytes: Uint8Array,
    format: 'xls' | 'ods' | 'xlsx',
    opts?: { signal?: AbortSignal | undefined },
  ): Promise<Buffer>;
  /** How conversions are isolated; rejects when the converter cannot run here. */
  isolation(): Promise<ConverterIsolation>;
  readonly stats: { running: number; queued: number };
}

/** Calc's own OOXML filter: cached formula results and number formats are kept. */
const XLSX_TARGET = 'xlsx:Calc MS Excel 2007 XML';

/** LibreOffice writes whatever a document expands to: past this one file it is stopped. */
const MAX_FILE_BYTES = 1024 * 1024 * 1024;

/**
 * Converts office documents to PDF with LibreOffice, one fresh `soffice --convert-to` per file:
 * each in its own directory with a fresh profile, isolated by the sandbox (an unprivileged user,
 * no network, bounded memory, an allow-listed environment), killed with everything it started at
 * its deadline, its directory removed afterwards.
 */
export function createDocumentConverter(opts: DocumentConverterOptions): DocumentConverter {
  const executable = opts.executable ?? DEFAULT_SOFFICE;
  const limit = pLimit(opts.concurrency);
  let sandbox: Promise<Sandbox> | undefined;
  let conversions: Promise<string> | undefined;
  let inFlight = 0;
  /**
   * A conversion's directory, inside a folder the converter's user may pass through but not
   * list (0711), named at random. All conversions run as the same user: one must not find
   * another's files by listing the temporary folder. The folder lives while conversions do.
   */
  async function conversionDir(): Promise<string> {
    inFlight++;
    try {
      conversions ??= mkdtemp(path.join(os.tmpdir(), 'xt-convert-')).then(async (root) => {
        await chmod(root, 0o711);
        return root;
      });
      const dir = path.join(await conversions, randomUUID());
      await mkdir(dir, { mode: 0o700 });
      return dir;
    } catch (err) {
      await conversionDone();
      throw err;
    }
  }
  async function conversionDone(): Promise<void> {
    if (--inFlight > 0 || !conversions) return;
    const root = conversions;
    conversions = undefined;
    await rmdir(await root).catch(() => undefined);
  }
  /**
   * A user of its own for each conversion at once while the sandbox has enough; past that they
   * are shared in turn (CONVERT_CONCURRENCY above the users CONVERTER_USER lists).
   */
  let free: SystemUser[] | undefined;
  let turn = 0;
  const takeUser = (box: Sandbox): SystemUser => {
    free ??= [...box.users];
    return free.shift() ?? box.users[turn++ % box.users.length]!;
  };
  const giveBack = (user: SystemUser) => {
    if (free && !free.includes(user)) free.push(user);
  };
  const ready = (): Promise<Sandbox> =>
    (sandbox ??= (async () => {
      await access(executable, constants.X_OK).catch(() => {
        throw new Error(
          `LibreOffice is not installed at ${executable} (Debian: apt-get install libreoffice-writer-nogui libreoffice-impress-nogui, or set CONVERTER_PATH)`,
        );
      });
      const settings = {
        user: opts.user,
        memoryMb: opts.memoryMb,
        maxFileBytes: MAX_FILE_BYTES,
        ...(opts.network ? { network: opts.network } : {}),
        requireIsolation: opts.requireIsolation === true,
      };
      return opts.launcher === undefined
        ? createSandbox(settings)
        : createLauncherSandbox({ ...settings, launcher: opts.launcher });
    })());

  /** `format` in, `target` (`--convert-to`'s argument) out, the output's extension `ext`. */
  async function convert(
    bytes: Uint8Array,
    format: FormatName,
    target: { spec: string; ext: string; magic: string },
    signal: AbortSignal | undefined,
  ): Promise<Buffer> {
    const box = await ready().catch((err: unknown) => {
      throw new ExtractionFailure(
        'SOURCE_UNSUPPORTED',
        `Documents cannot be converted on this worker: ${(err as Error).message}.`,
        { cause: err },
      );
    });
    signal?.throwIfAborted();
    const dir = await conversionDir();
    const user = takeUser(box);
    try {
      const input = path.join(dir, `source${FORMATS[format].extensions[0]}`);
      const out = path.join(dir, 'out');
      const home = path.join(dir, 'home');
      await writeFile(input, bytes, { mode: 0o600 });
      await mkdir(home);
      const profile = await writeProfile(dir);
      await box.handOver(dir, user);
      const result = await runGroup(
        box.wrap(
          [
            executable,
            `-env:UserInstallation=${profile}`,
            '--headless',
            '--invisible',
            '--nologo',
            '--nodefault',
            '--norestore',
            '--nolockcheck',
            '--convert-to',
            target.spec,
            '--outdir',
            out,
            input,
          ],
          user,
        ),
        {
          env: converterEnvironment(opts.environment, home),
          cwd: dir,
          timeoutMs: opts.timeoutMs,
          signal,
        },
      );
      if (result.aborted) throw signal?.reason ?? new Error('conversion aborted');
      if (result.timedOut)
        throw new ExtractionFailure(
          'TIMEOUT',
          `Converting the ${format.toUpperCase()} file took longer than ${opts.timeoutMs} ms (CONVERT_TIMEOUT_MS).`,
        );
      const converted = await readOutput(
        path.join(out, `source.${target.ext}`),
        user.uid,
        MAX_FILE_BYTES,
      );
      const magic = Buffer.from(target.magic, 'latin1');
      if (!converted || !converted.subarray(0, magic.length).equals(magic)) {
        const failure = failed(result, format);
        opts.logger?.warn(
          { format, code: result.code, signal: result.signal, output: result.output },
          `document conversion failed: ${failure.message}`,
        );
        throw failure;
      }
      return converted;
    } finally {
      await box.remove(dir, user);
      await conversionDone();
      giveBack(user);
    }
  }

  return {
    convertToPdf: (bytes, format, { signal, notesPages } = {}) =>
      limit(() =>
        convert(
          bytes,
          format,
          { spec: pdfExportTarget(format, notesPages ?? true), ext: 'pdf', magic: '%PDF-' },
          signal,
        ),
      ),
    convertToXlsx: (bytes, format, { signal } = {}) =>
      limit(() => convert(bytes, format, { spec: XLSX_TARGET, ext: 'xlsx', magic: 'PK' }, signal)),
    isolation: async () => (await ready()).isolation,
    get stats() {
      return { running: limit.activeCount, queued: limit.pendingCount };
    },
  };
}

/**
 * How the converter ended, in words: a signal it was killed by, or that LibreOffice's launcher
 * reports as 128 + the signal when soffice.bin died of one.
 */
function ending(result: GroupResult): string | undefined {
  const signal =
    result.signal ??
    (result.code !== null && result.code > 128
      ? Object.entries(os.constants.signals).find(([, n]) => n === result.code! - 128)?.[0]
      : undefined);
  if (signal) return `killed by ${signal}`;
  if (result.code !== null && result.code > 1) return `exit status ${result.code}`;
  return undefined;
}

/** Why LibreOffice gave no PDF, as the extraction's failure. */
function failed(result: GroupResult, format: FormatName): ExtractionFailure {
  const name = format.toUpperCase();
  const how = ending(result);
  if (how === 'killed by SIGXFSZ')
    return new ExtractionFailure(
      'SOURCE_TOO_LARGE',
      `The ${name} file expands to more than ${MAX_FILE_BYTES / 1024 / 1024} MiB when laid out.`,
    );
  if (how)
    return new ExtractionFailure(
      'SOURCE_UNREADABLE',
      `The document converter stopped on the ${name} file (${how}): it may be damaged, or need more memory than CONVERT_MAX_MEMORY_MB allows.`,
    );
  return new ExtractionFailure(
    'SOURCE_UNREADABLE',
    `LibreOffice could not read the ${name} file: it may be damaged.`,
  );
}
