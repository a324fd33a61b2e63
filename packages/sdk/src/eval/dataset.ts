import { existsSync } from 'node:fs';
import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { CreateExtractionParams } from '../create-params.ts';
import { fileInside } from '../file-inside.ts';
import { FILE_EXTENSIONS, sourceTypeFor } from '../source-type.ts';
import type { SchemaInput, SourceType } from '../types.ts';

/**
 * A data set folder: `schema.json`, `cases/<case>.<ext>`, `expected/<case>.json`, and
 * optionally `recorded/<case>.json`.
 */
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
  expected: unknown;
  /**
   * `recorded/<case>.json`, when the data set has one: the model's output as it was before a
   * person reviewed it (a set exported from reviews, docs/review.md)
   */
  recorded?: unknown;
}

/*
 * A case's type is what `xt extract` would send for its file (the SDK's copy of the registry's
 * extensions, held to it by the service's tests): a data set read its own table before, which
 * sent a `.csv` as text where every other client sends it as a spreadsheet. No content type is
 * sent, since the service recognises a file by its content alone.
 */
function caseType(file: string): SourceType | undefined {
  return path.extname(file).toLowerCase() === '.url' ? 'webpage' : sourceTypeFor(file, false);
}

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
    const type = caseType(file);
    if (!type) {
      throw new DatasetError(
        `cases/${file}: unsupported extension; use one of ${[...FILE_EXTENSIONS, '.url'].join(' ')}`,
      );
    }
    const name = path.basename(file, path.extname(file));
    if (cases.some((c) => c.name === name)) {
      throw new DatasetError(`cases/${file}: two cases are named ${name}`);
    }
    const expected = await readJson(path.join(dir, 'expected', `${name}.json`));
    const recordedFile = path.join(dir, 'recorded', `${name}.json`);
    const recorded = existsSync(recordedFile) ? await readJson(recordedFile) : undefined;
    cases.push({
      name,
      file: await caseFile(casesDir, file),
      type,
      expected,
      ...(recorded !== undefined ? { recorded } : {}),
    });
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
      source: { path: item.file },
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
