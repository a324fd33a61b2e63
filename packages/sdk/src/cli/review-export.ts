import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { XtClient } from '../client.ts';
import { ApiError } from '../errors.ts';
import { sourceTypeFor } from '../source-type.ts';
import type { DatasetCase } from '../review-types.ts';

export interface ExportResult {
  written: number;
  /** cases left out, each with why */
  skipped: { case: string; reason: string }[];
}

/**
 * A case's source file in the data set: typed text as `.txt`, a webpage as a `.url` line, an
 * upload as its bytes under its own extension (so `xt eval` sends it as the same kind). A
 * source the service no longer holds, or one `xt eval` could not send as it was, is left out.
 */
async function caseSource(
  client: XtClient,
  item: DatasetCase,
): Promise<{ name: string; bytes: Uint8Array | string } | { skip: string }> {
  if (item.file) {
    const ext = path.extname(item.file.name).toLowerCase();
    if (!sourceTypeFor(`x${ext}`, false))
      return { skip: `the upload ${item.file.name} has no extension xt eval sends by` };
    if (item.file.removedAt)
      return { skip: `the upload's bytes were removed ${item.file.removedAt}` };
    try {
      return {
        name: `${item.case}${ext}`,
        bytes: await client.extractions.file(item.extractionId),
      };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404)
        return { skip: 'the upload’s bytes are no longer kept' };
      throw error;
    }
  }
  if (item.type === 'text') return { name: `${item.case}.txt`, bytes: item.source };
  if (item.type === 'webpage') return { name: `${item.case}.url`, bytes: `${item.source}\n` };
  return { skip: `a ${item.type} fetched by URL: the service keeps no copy of its bytes` };
}

/**
 * Writes the schema's approved extractions as an evaluation data set (docs/evaluation.md):
 * `schema.json`, `cases/<id>.<ext>`, `expected/<id>.json` (the reviewed result) and
 * `recorded/<id>.json` (the result as the model read it), which `xt eval` reads as it is.
 */
export async function exportReviewedDataset(
  client: XtClient,
  schemaId: string,
  dir: string,
): Promise<ExportResult> {
  const schema = await client.schemas.get(schemaId);
  for (const sub of ['cases', 'expected', 'recorded'])
    await mkdir(path.join(dir, sub), { recursive: true });
  await writeFile(
    path.join(dir, 'schema.json'),
    `${JSON.stringify({ name: schema.name, description: schema.description, structure: schema.structure }, null, 2)}\n`,
  );
  const result: ExportResult = { written: 0, skipped: [] };
  for await (const item of client.schemas.allDataset(schemaId)) {
    const source = await caseSource(client, item);
    if ('skip' in source) {
      result.skipped.push({ case: item.case, reason: source.skip });
      continue;
    }
    const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
    await writeFile(path.join(dir, 'cases', source.name), source.bytes);
    await writeFile(path.join(dir, 'expected', `${item.case}.json`), json(item.expected));
    await writeFile(path.join(dir, 'recorded', `${item.case}.json`), json(item.recorded));
    result.written += 1;
  }
  return result;
}
