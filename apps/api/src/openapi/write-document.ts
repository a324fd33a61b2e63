/**
 * Writes the OpenAPI document the API serves to a file, for tools that lint or generate from a
 * file (`npm run lint:openapi`): `tsx apps/api/src/openapi/write-document.ts <path>`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from './document.ts';

const target = process.argv[2];
if (!target) {
  console.error('usage: write-document.ts <output path>');
  process.exit(2);
}
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
