import { findLabelled, firstHeading } from './labelled.ts';
import { ocrImage } from './ocr.ts';
import { findRows } from './rows.ts';
import { isRecord, scalarType, unwrapNullable, type JsonSchema } from './schema-walk.ts';
import { readScalar } from './values.ts';

/**
 * The oracle: answers from nothing but what reached it. It reads the source part of the
 * request (the text between <source> and </source>, and the text `tesseract` reads from each
 * image), and fills the schema by copying labelled values ("Invoice number: INV-7") and table
 * rows whose cells fit an array's item fields. A value lost on the way to the model is a value
 * the oracle cannot give, so scoring its answers measures what the pipeline loses.
 */
export async function oracleAnswer(body: unknown, schema: unknown): Promise<unknown> {
  const source = await readSource(body);
  return fill(schema, source, [], schema);
}

interface Source {
  /** every line: the text parts', then the images' */
  lines: string[];
  /** the lines of the text parts alone */
  textLines: string[];
  /** the lines read from images */
  imageLines: string[];
}

function fill(schema: unknown, source: Source, path: string[], root: unknown): unknown {
  const { lines } = source;
  const { schema: real, nullable } = unwrapNullable(resolve(schema, root));
  if (real.type === 'object') {
    const out: Record<string, unknown> = {};
    const properties = isRecord(real.properties) ? real.properties : {};
    for (const [key, child] of Object.entries(properties)) {
      out[key] = fill(child, source, [...path, key], root);
    }
    return out;
  }
  if (real.type === 'array') {
    const item = unwrapNullable(resolve(real.items, root)).schema;
    if (item.type === 'object') return tableRows(source, item) ?? (nullable ? null : []);
    const type = scalarType(item);
    const labelled = findLabelled(lines, path);
    if (!type || labelled === undefined) return nullable ? null : [];
    return labelled
      .split(/[,;]/)
      .map((part) => part.trim())
      .map((part) => readScalar(part, type, item))
      .filter((v) => v !== undefined);
  }
  const type = scalarType(real);
  if (!type) return null;
  const key = path.at(-1) ?? '';
  const labelled =
    findLabelled(lines, path) ??
    (path.length > 1 ? findLabelled(lines, [key]) : undefined) ??
    (/^(title|headline)$/i.test(key) ? firstHeading(lines) : undefined);
  const value = labelled === undefined ? undefined : readScalar(labelled, type, real);
  if (value !== undefined) return value;
  if (nullable) return null;
  return type === 'string' ? '' : type === 'boolean' ? false : 0;
}

function resolve(schema: unknown, root: unknown): JsonSchema {
  if (!isRecord(schema) || typeof schema.$ref !== 'string') return isRecord(schema) ? schema : {};
  let node: unknown = root;
  for (const segment of schema.$ref.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    node = isRecord(node) ? node[segment] : undefined;
  }
  return isRecord(node) ? node : {};
}

/**
 * Rows from the text, then the rows of images that the text did not already give: a webpage's
 * screenshot repeats the table its text holds, and a reader would not list those rows twice.
 */
function tableRows(source: Source, item: JsonSchema): Record<string, unknown>[] | undefined {
  const fromText = findRows(source.textLines, item);
  if (!fromText) return undefined;
  const unseen = new Map<string, number>();
  for (const row of fromText) {
    const key = JSON.stringify(row);
    unseen.set(key, (unseen.get(key) ?? 0) + 1);
  }
  const fromImages = (findRows(source.imageLines, item) ?? []).filter((row) => {
    const key = JSON.stringify(row);
    const left = unseen.get(key) ?? 0;
    if (left > 0) unseen.set(key, left - 1);
    return left === 0;
  });
  return [...fromText, ...fromImages];
}

export async function readSource(body: unknown): Promise<Source> {
  const { text, images } = await sourceText(body);
  const textLines = text.split(/\r?\n/);
  const imageLines = images.flatMap((t) => t.split(/\r?\n/));
  return { lines: [...textLines, ...imageLines], textLines, imageLines };
}

/**
 * The source part of the user messages (between <source> and </source>: not the instruction
 * or the chunk header), and the text `tesseract` reads from each image in it.
 */
async function sourceText(body: unknown): Promise<{ text: string; images: string[] }> {
  const messages =
    isRecord(body) && Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  const pieces: string[] = [];
  const images: string[] = [];
  for (const message of messages) {
    if (!isRecord(message) || message.role !== 'user') continue;
    const parts: unknown[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : Array.isArray(message.content)
          ? (message.content as unknown[])
          : [];
    for (const part of parts) {
      if (!isRecord(part)) continue;
      if (part.type === 'text' && typeof part.text === 'string') pieces.push(part.text);
      if (part.type === 'image_url' && isRecord(part.image_url)) {
        const url = part.image_url.url;
        const data = typeof url === 'string' ? /^data:[^;,]+;base64,(.*)$/s.exec(url) : null;
        if (data) images.push(await ocrImage(Buffer.from(data[1]!, 'base64')));
      }
    }
  }
  const joined = pieces.join('\n');
  const start = joined.indexOf('<source>');
  const end = joined.lastIndexOf('</source>');
  const text = start >= 0 && end > start ? joined.slice(start + '<source>'.length, end) : joined;
  return { text, images };
}
