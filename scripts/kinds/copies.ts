/**
 * The SDK's and the Python client's copies of the registry of source kinds
 * (packages/contract/src/source-kinds.ts), written from it: both are published without a
 * dependency on the service's packages, so they carry the lists as files of their own.
 * `npm run kinds:copies` writes them; scripts/kinds/copies.test.ts fails when one is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import {
  autoKindFor,
  FORMATS,
  RECORD_SOURCE_TYPES,
  SOURCE_TYPES,
  typesTaking,
  type FormatName,
} from '@xt/contract';

export const SDK_COPY = 'packages/sdk/src/source-kinds.generated.ts';
export const PYTHON_COPY = 'clients/python/src/xt_sdk/_source_kinds.py';

const FROM = 'packages/contract/src/source-kinds.ts';
const quoted = (values: readonly string[], q: string) => values.map((v) => `${q}${v}${q}`);

/** Each usual extension's type: the kind `auto` reads its format as, in FORMATS' order. */
function byExtension(): [string, string][] {
  return (Object.keys(FORMATS) as FormatName[]).flatMap((f) => {
    const kind = autoKindFor(f, 'upload');
    return kind ? FORMATS[f].extensions.map((ext): [string, string] => [ext, kind]) : [];
  });
}

export async function renderSdkCopy(root: string): Promise<string> {
  const list = (values: readonly string[]) => `[${quoted(values, "'").join(', ')}] as const`;
  const union = (values: readonly string[]) => quoted(values, "'").join(' | ');
  const text = `// Written from the service's registry of source kinds (${FROM}) by
// \`npm run kinds:copies\`: edit the registry, not this file (scripts/kinds/copies.test.ts).

/** Every \`type\` the service takes, in the service's order. */
export const SOURCE_TYPES = ${list(SOURCE_TYPES)};
export type SourceType = (typeof SOURCE_TYPES)[number];

/** What a single record shows as \`source.type\` (webpages are \`url\` there). */
export type RecordSourceType = ${union(RECORD_SOURCE_TYPES)};

/** The types whose \`source\` may be a URL; a URL of any other file is fetched as a webpage. */
export const URL_TYPES = ${list(typesTaking('url'))} satisfies readonly SourceType[];

/** A file source's format, recognised by the service from its content (docs/sources.md). */
export type SourceFormat = ${union(Object.keys(FORMATS))};

/**
 * The type to send a file of each usual extension as: the kind the service's \`auto\` would read
 * it as (a CSV file as a spreadsheet, its cells cited).
 */
export const BY_EXTENSION: Readonly<Record<string, SourceType>> = {
${byExtension()
  .map(([ext, kind]) => `  '${ext}': '${kind}',`)
  .join('\n')}
};
`;
  const filepath = path.join(root, SDK_COPY);
  return format(text, { ...(await resolveConfig(filepath)), filepath });
}

export function renderPythonCopy(): string {
  // One line where the assignment fits in 100 characters, else one value a line, as black does.
  const assign = (name: string, values: readonly string[]) => {
    const line = `${name} = Literal[${quoted(values, '"').join(', ')}]`;
    if (line.length <= 100) return line;
    return `${name} = Literal[\n${quoted(values, '"')
      .map((v) => `    ${v},\n`)
      .join('')}]`;
  };
  return `"""The registry of source kinds (${FROM}), as the wire types name it.

Written by \`npm run kinds:copies\`: edit the registry, not this file (scripts/kinds/copies.test.ts).
"""

from __future__ import annotations

from typing import Literal

${assign('SourceType', SOURCE_TYPES)}
#: what a single record shows as \`\`source.type\`\` (webpages are \`\`url\`\` there)
${assign('RecordSourceType', RECORD_SOURCE_TYPES)}
`;
}

export async function renderCopies(root: string): Promise<Record<string, string>> {
  return { [SDK_COPY]: await renderSdkCopy(root), [PYTHON_COPY]: renderPythonCopy() };
}

export function readCopy(root: string, file: string): string {
  return readFileSync(path.join(root, file), 'utf8');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  for (const [file, text] of Object.entries(await renderCopies(root)))
    writeFileSync(path.join(root, file), text);
}
