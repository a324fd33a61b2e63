/**
 * The configuration tables people read (README.md's, and docs/webhooks.md's for the WEBHOOK_*
 * settings) against the zod schemas the apps validate their environment with: every setting an
 * app reads is in a table, every variable a table names is read by some app, and every default
 * a table states is the default the schema gives.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { configSchema as apiSchema } from '@xt/api/config';
import { configSchema as launcherSchema, REPO_ROOT } from '@xt/launcher/config';
import { configSchema as workerSchema } from '@xt/worker/config';

const TABLES = ['README.md', 'docs/webhooks.md'];
const MiB = 1024 * 1024;

/**
 * Defaults the tables describe in words, because the value depends on the machine or is
 * decided outside the schema: the words, and the value the schema must then give (`byApp` for
 * an app whose default differs, such as what `npm start` gives the processes it starts).
 */
const DESCRIBED: Record<
  string,
  { words: string; value: unknown; byApp?: Partial<Record<keyof typeof APPS, unknown>> }
> = {
  DATABASE_URL: { words: 'embedded (launcher)', value: undefined },
  REDIS_URL: { words: 'embedded (launcher)', value: undefined },
  DATA_DIR: { words: '`./.data`', value: path.join(REPO_ROOT, '.data') },
  PREP_THREADS: { words: 'cores', value: Math.max(1, os.availableParallelism()) },
  UPLOAD_TMP_DIR: {
    words: '`$TMPDIR/xt-uploads`',
    value: path.join(os.tmpdir(), 'xt-uploads'),
  },
  // Computed by the upload store from DB_POOL_MAX when unset.
  UPLOAD_STORE_CONCURRENCY: { words: 'half of `DB_POOL_MAX`', value: undefined },
  DASHBOARD_ASSETS_DIR: { words: 'package `dist/`', value: undefined },
  // The openai SDK's own default base URL.
  OPENAI_BASE_URL: { words: 'OpenAI', value: undefined },
  MODEL_MAP: { words: 'identity', value: '' },
  // Found by the worker's browser host at start-up when unset.
  CHROMIUM_PATH: { words: '`/usr/bin/chromium` if present', value: undefined },
  // The converter takes Debian's LibreOffice when unset.
  CONVERTER_PATH: { words: '`/usr/bin/soffice`', value: undefined },
  // Unset, the launchers switch a root worker to `nobody`; the image names users of its own.
  BROWSER_USER: { words: '`nobody`', value: undefined },
  CONVERTER_USER: { words: '`nobody`', value: undefined },
  WORKER_NAME: {
    words: 'host name and process id',
    value: `${os.hostname()}-${process.pid}`,
  },
  // The API and workers listen everywhere, as containers need; `npm start` keeps them local.
  HOST: {
    words: '`0.0.0.0` (`npm start`: `127.0.0.1`)',
    value: '0.0.0.0',
    byApp: { launcher: '127.0.0.1' },
  },
  WORKER_METRICS_HOST: {
    words: '`0.0.0.0` (`npm start`: `127.0.0.1`)',
    value: '0.0.0.0',
    byApp: { launcher: '127.0.0.1' },
  },
  // Unset under `npm start`: a free port per worker, chosen by the launcher.
  WORKER_METRICS_PORT: {
    words: '`9464` (`npm start`: free)',
    value: 9464,
    byApp: { launcher: undefined },
  },
  // Unset: the AWS SDK's own endpoint for the region, and the S3 store's region.
  S3_ENDPOINT: { words: 'AWS', value: undefined },
  S3_REGION: { words: '`us-east-1`', value: undefined },
};

/** Read only by the launcher and the process supervisor, never validated as settings. */
const NOT_SETTINGS = new Set(['PATH']);

interface Documented {
  file: string;
  /** The default cell's entry for this variable; undefined where the row defers elsewhere. */
  words?: string;
}

/** Splits on commas outside backticks: `5s,30s,2m` is one value. */
function splitOutsideCode(cell: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inCode = false;
  for (const ch of cell) {
    if (ch === '`') inCode = !inCode;
    if (ch === ',' && !inCode) {
      parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  parts.push(current.trim());
  return parts.filter(Boolean);
}

function readTables(): Map<string, Documented[]> {
  const documented = new Map<string, Documented[]>();
  for (const file of TABLES) {
    const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
    const start = lines.findIndex((l) => l.startsWith('| Variable'));
    expect(start, `${file} has a configuration table`).toBeGreaterThan(-1);
    for (const line of lines.slice(start + 2)) {
      if (!line.startsWith('|')) break;
      const [names = '', , defaults = ''] = line
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim());
      const variables = [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);
      const values = splitOutsideCode(defaults);
      const defers = /^see /.test(defaults);
      variables.forEach((variable, i) => {
        // One entry per variable, or one for all of them; a trailing unit applies to each.
        let words = values.length === variables.length ? values[i] : values[0];
        if (words && /^\d+$/.test(words)) {
          const unit = /^\d+ (MiB)$/.exec(values.at(-1) ?? '')?.[1];
          if (unit) words = `${words} ${unit}`;
        }
        const entry: Documented = defers ? { file } : { file, words };
        documented.set(variable, [...(documented.get(variable) ?? []), entry]);
      });
    }
  }
  return documented;
}

/** What a table's words say the default is, or a problem when they say nothing checkable. */
function meaning(words: string): { value: unknown } | null {
  // A trailing remark in parentheses: "`24` (minimum)".
  const open = words.endsWith(')') ? words.lastIndexOf(' (') : -1;
  const plain = open === -1 ? words : words.slice(0, open);
  if (plain === 'unset') return { value: undefined };
  if (plain === 'empty') return { value: '' };
  const mib = /^(\d+) MiB$/.exec(plain);
  if (mib) return { value: Number(mib[1]) * MiB };
  const literal = /^`([^`]*)`$/.exec(plain)?.[1] ?? (/^\d+$/.test(plain) ? plain : undefined);
  if (literal === undefined) return null;
  // Another setting's name: unset, this one takes that one's value (`DATABASE_URL`).
  if (/^[A-Z][A-Z0-9_]+$/.test(literal) && literal.includes('_')) return { value: undefined };
  return { value: literal };
}

/** Tables write values as text: `4` is the number 4, `true` the boolean. */
const same = (documented: unknown, actual: unknown) =>
  typeof documented === 'string' && (typeof actual === 'number' || typeof actual === 'boolean')
    ? String(actual) === documented
    : documented === actual;

/**
 * Each variable's default as the environment would spell it: the schema's `.default()` before
 * any transform (`WEBHOOK_RETRY_DELAYS` is the text `5s,30s,…`, not the delays it parses to).
 */
function defaultsOf(schema: z.ZodObject): Map<string, unknown> {
  const defaults = new Map<string, unknown>();
  for (const [name, field] of Object.entries(schema.shape)) {
    let def = field._zod.def as {
      type: string;
      in?: z.ZodType;
      defaultValue?: unknown;
    };
    while (def.type === 'pipe' && def.in) def = def.in._zod.def;
    defaults.set(name, def.type === 'default' ? def.defaultValue : undefined);
  }
  return defaults;
}

const APPS = { api: apiSchema, worker: workerSchema, launcher: launcherSchema };

describe('the configuration tables', () => {
  const tables = readTables();

  for (const [app, schema] of Object.entries(APPS)) {
    it(`state every setting of the ${app} with the default its schema gives`, () => {
      const problems: string[] = [];
      for (const [name, actual] of defaultsOf(schema)) {
        if (NOT_SETTINGS.has(name)) continue;
        const rows = tables.get(name);
        if (!rows) {
          problems.push(`${name}: read by the ${app}, in no configuration table`);
          continue;
        }
        for (const { file, words } of rows) {
          if (words === undefined) continue;
          const described = DESCRIBED[name];
          if (described && words === described.words) {
            const byApp = described.byApp ?? {};
            const expected = app in byApp ? byApp[app as keyof typeof APPS] : described.value;
            if (!same(expected, actual))
              problems.push(
                `${name}: "${words}" in ${file}, but the ${app} defaults to ${String(actual)}`,
              );
            continue;
          }
          const said = meaning(words);
          if (!said)
            problems.push(`${name}: "${words}" in ${file} is not a default this test can read`);
          else if (!same(said.value, actual))
            problems.push(
              `${name}: ${file} says ${words}, the ${app} defaults to ${JSON.stringify(actual)}`,
            );
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('name no variable that no app reads', () => {
    const read = new Set(Object.values(APPS).flatMap((s) => Object.keys(s.shape)));
    // Variables of the compose set-up itself (the load balancer, Grafana), which compose passes
    // to the services that read them: the compose file must use each one it documents.
    const compose = readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
    for (const m of compose.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)) if (m[1]) read.add(m[1]);
    expect([...tables.keys()].filter((name) => !read.has(name))).toEqual([]);
  });

  it('agree with the defaults the prose of the docs mentions', () => {
    const all = new Map<string, unknown>();
    for (const schema of Object.values(APPS))
      for (const [name, value] of defaultsOf(schema)) if (value !== undefined) all.set(name, value);
    const files = [
      'README.md',
      ...readdirSync(path.join(REPO_ROOT, 'docs')).map((f) => `docs/${f}`),
    ];
    const problems: string[] = [];
    let seen = 0;
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(path.join(REPO_ROOT, file), 'utf8').replace(/\s+/g, ' ');
      // "`JOB_ATTEMPTS`, default 4", "`MAX_TEXT_CHARS` (default 1,000,000)", "(default 50 MiB)";
      // not a sum's ("`A` + `B`, default 9464") nor an address's (`0.0.0.0`).
      for (const m of text.matchAll(
        /(?<!\+ )`([A-Z][A-Z0-9_]+)`,? \(?default (?:and minimum )?`?(\d[\d,]*)(?!\.?\d)`?( MiB)?/g,
      )) {
        const [, name = '', digits = '', mib] = m;
        if (!all.has(name)) continue;
        seen += 1;
        const stated = Number(digits.replaceAll(',', '')) * (mib ? MiB : 1);
        if (stated !== all.get(name))
          problems.push(
            `${file}: ${name} default ${m[2]}${mib ?? ''}, the code says ${String(all.get(name))}`,
          );
      }
    }
    expect(problems).toEqual([]);
    expect(seen).toBeGreaterThan(5);
  });

  it('would notice a wrong default', () => {
    expect(meaning('`3`')).toEqual({ value: '3' });
    expect(same('3', 4)).toBe(false);
    expect(same('4', 4)).toBe(true);
    expect(meaning('50 MiB')).toEqual({ value: 50 * MiB });
    expect(meaning('`24` (minimum)')).toEqual({ value: '24' });
    expect(meaning('`DATABASE_URL`')).toEqual({ value: undefined });
    expect(splitOutsideCode('`5s,30s`, `1000`')).toEqual(['`5s,30s`', '`1000`']);
  });
});
