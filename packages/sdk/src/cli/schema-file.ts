import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { XtClient } from '../client.ts';
import type { Schema, SchemaInput, Structure } from '../types.ts';
import { UsageError } from './command.ts';

export interface SchemaFile {
  input: SchemaInput;
  /** SHA-256 of the request it makes: the same file and name give the same Idempotency-Key. */
  sha256: string;
}

/**
 * A schema as a JSON file: `{ name, description?, structure }`, or a bare structure
 * (`{ "type": "object", "properties": … }`) named after the file.
 */
export async function readSchemaFile(file: string, name?: string): Promise<SchemaFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${file} must hold a JSON object`);
  }
  const record = parsed as Record<string, unknown>;
  const input: SchemaInput =
    'structure' in record
      ? ({ ...record, ...(name ? { name } : {}) } as unknown as SchemaInput)
      : {
          name: name ?? path.basename(file).replace(/\.json$/i, ''),
          structure: record as unknown as Structure,
        };
  return { input, sha256: createHash('sha256').update(JSON.stringify(input)).digest('hex') };
}

/** Whether `--schema` names a file rather than a schema id. */
export function looksLikeFile(value: string): boolean {
  return /\.json$/i.test(value) || value.includes('/') || value.includes(path.sep);
}

// Property order is kept: it orders the output's keys and `xt extract`'s CSV columns.
const sameSchema = (a: SchemaInput, b: SchemaInput) =>
  JSON.stringify([a.name, a.description ?? null, a.structure]) ===
  JSON.stringify([b.name, b.description ?? null, b.structure]);

/**
 * The schema a file describes: one the account already has with the same name, description and
 * structure, else a new one. The hash-derived Idempotency-Key alone made a second schema of the
 * same name once its 24 h window had passed, or when the file changed in a way that does not
 * matter (`"description": null` added, say). A file whose structure did change makes a new
 * schema beside the old one, which keeps its name: names may repeat, and changing the old one
 * would change what earlier extractions' schema id means.
 */
export async function schemaForFile(
  client: XtClient,
  { input, sha256 }: SchemaFile,
): Promise<{ schema: Schema; reused: boolean }> {
  for await (const existing of client.schemas.all({ search: input.name })) {
    if (sameSchema(existing, input)) return { schema: existing, reused: true };
  }
  const schema = await client.schemas.create(input, { idempotencyKey: `xt-schema-${sha256}` });
  return { schema, reused: false };
}
