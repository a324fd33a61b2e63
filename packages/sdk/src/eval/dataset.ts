import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { CreateExtractionParams } from '../client.ts';
import { fileInside } from '../file-inside.ts';
import type { SchemaInput, SourceType } from '../types.ts';

/** A data set folder: `schema.json`, `cases/<case>.<ext>`, `expected/<case>.json`. */
export interface Dataset {
  dir: string;
  name: string;
  schema: SchemaInput;
  cases: DatasetCase[];
}

export interface DatasetCase {
  name: string;
  /** The source's real path, inside the data set's `cases/` (links followed). */
  file: string;
  type: SourceType;
  /** set for uploads */
  contentType?: string;
  expected: unknown;
}

const KINDS: Record<string, { type: SourceType; contentType?: string }> = {
  '.pdf': { type: 'pdf', contentType: 'application/pdf' },
  '.png': { type: 'image', contentType: 'image/png' },
  '.jpg': { type: 'image', contentType: 'image/jpeg' },
  '.jpeg': { type: 'image', contentType: 'image/jpeg' },
  '.webp': { type: 'image', contentType: 'image/webp' },
  '.txt': { type: 'text', contentType: 'text/plain' },
  '.md': { type: 'text', contentType: 'text/markdown' },
  '.csv': { type: 'text', contentType: 'text/csv' },
  '.json': { type: 'text', contentType: 'application/json' },
  '.html': { type: 'text', contentType: 'text/html' },
  '.url': { type: 'webpage' },
  '.docx': {
    type: 'document',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  '.pptx': {
    type: 'document',
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
  '.odt': { type: 'document', contentType: 'application/vnd.oasis.opendocument.text' },
  '.xlsx': {
    type: 'spreadsheet',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
  '.ods': { type: 'spreadsheet', contentType: 'application/vnd.oasis.opendocument.spreadsheet' },
  '.eml': { type: 'email', contentType: 'message/rfc822' },
};

export class DatasetError extends Error {}

export async function loadDataset(dir: string): Promise<Dataset> {
  const schema = await readJson(path.join(dir, 'schema.json'));
  if (!isObject(schema) || typeof schema.name !== 'string' || !isObject(schema.structure)) {
    throw new DatasetError(`${path.join(dir, 'schema.json')} must hold { "name", "structure" }`);
  }
  const casesDir = path.join(dir, 'cases');
  const files = (
    await readdir(casesDir).catch(() => {
      throw new DatasetError(`${casesDir} is missing: a data set keeps one source per case there`);
    })
  ).sort();
  if ((await realpath(casesDir)) !== path.join(await realpath(dir), 'cases')) {
    throw new DatasetError(`${casesDir} links out of the data set; copy the sources in instead`);
  }
  const cases: DatasetCase[] = [];
  for (const file of files) {
    if (file.startsWith('.')) continue;
    const ext = path.extname(file).toLowerCase();
    const kind = KINDS[ext];
    if (!kind) {
      throw new DatasetError(
        `cases/${file}: unsupported extension; use one of ${Object.keys(KINDS).join(' ')}`,
      );
    }
    const name = path.basename(file, path.extname(file));
    if (cases.some((c) => c.name === name)) {
      throw new DatasetError(`cases/${file}: two cases are named ${name}`);
    }
    const expected = await readJson(path.join(dir, 'expected', `${name}.json`));
    cases.push({ name, file: await caseFile(casesDir, file), ...kind, expected });
  }
  if (cases.length === 0) throw new DatasetError(`${casesDir} holds no cases`);
  return {
    dir,
    name: path.basename(path.resolve(dir)),
    schema: schema as unknown as SchemaInput,
    cases,
  };
}

/**
 * A case's source is sent to the service, so a link in a data set someone else wrote must not
 * send a file from elsewhere on this machine (`cases/a.txt -> ~/.ssh/id_rsa`).
 */
async function caseFile(casesDir: string, file: string): Promise<string> {
  const found = await fileInside(casesDir, file);
  if (found.ok) return found.real;
  throw new DatasetError(
    found.reason === 'outside'
      ? `cases/${file} links outside the data set's cases/ folder; copy the source in instead`
      : `cases/${file} is not a readable file`,
  );
}

/**
 * The create parameters of a case. A `.url` case holds one line: an absolute URL, or a path
 * such as `/article` resolved against `site` (`--site`), for pages of a site started for the
 * run whose port is not known in advance.
 */
export async function caseSource(
  item: DatasetCase,
  site: string | undefined,
): Promise<Pick<CreateExtractionParams, 'type' | 'source'>> {
  if (item.type !== 'webpage') {
    return {
      type: item.type,
      source: { path: item.file, ...(item.contentType ? { contentType: item.contentType } : {}) },
    };
  }
  const line = (await readFile(item.file, 'utf8')).split('\n')[0]?.trim() ?? '';
  if (/^[a-z][a-z0-9+.-]*:/i.test(line)) return { type: 'webpage', source: line };
  if (!line.startsWith('/')) {
    throw new DatasetError(`${item.file}: one line, an absolute URL or a path starting with /`);
  }
  if (!site) {
    throw new DatasetError(
      `${item.file} holds a path (${line}): give the site's origin with --site`,
    );
  }
  return { type: 'webpage', source: new URL(line, site).href };
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new DatasetError(`${file} is missing`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DatasetError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
