import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Citations, ExtractionWarning, Reused, Structure } from '../../types.ts';
import { UsageError } from '../command.ts';
import { csvLine, parseCsv } from './csv.ts';

export type Format = 'jsonl' | 'csv';

/** One line of output: what became of one input. */
export interface ResultRow {
  source: string;
  sha256: string;
  id: string | null;
  status: 'completed' | 'failed';
  output: unknown;
  citations?: Citations | null;
  warnings?: ExtractionWarning[];
  /** JSONL only: the answer was an earlier extraction's, completed at once and uncharged. */
  reused?: Reused;
  error: { code: string; message: string } | null;
}

/** What an earlier run already wrote about an input (by source and content hash). */
export interface Previous {
  completed: boolean;
  /** Failed attempts so far: a retry uses a new Idempotency-Key, or it would replay the failure. */
  failures: number;
}

export function rowKey(source: string, sha256: string): string {
  return `${sha256} ${source}`;
}

const FIXED = ['source', 'sha256', 'id', 'status', 'error_code', 'error_message', 'warnings'];

/**
 * CSV columns: the fixed ones (`warnings` as JSON text, empty when there are none), then one per
 * top-level property of an object schema (objects and arrays as JSON text), or one `output`
 * column for an array schema; `citations` last when asked for.
 */
export function csvColumns(structure: Structure, citations: boolean): string[] {
  const fields = structure.type === 'object' ? Object.keys(structure.properties ?? {}) : ['output'];
  return [
    ...FIXED,
    ...fields.map((f) => (FIXED.includes(f) ? `output.${f}` : f)),
    ...(citations ? ['citations'] : []),
  ];
}

function csvValues(row: ResultRow, columns: string[]): string[] {
  const output = (row.output ?? {}) as Record<string, unknown>;
  const cell = (value: unknown) =>
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  return columns.map((column) => {
    switch (column) {
      case 'source':
        return row.source;
      case 'sha256':
        return row.sha256;
      case 'id':
        return row.id ?? '';
      case 'status':
        return row.status;
      case 'error_code':
        return row.error?.code ?? '';
      case 'error_message':
        return row.error?.message ?? '';
      case 'warnings':
        return cell(row.warnings);
      case 'citations':
        return cell(row.citations);
      case 'output':
        return cell(row.output);
      default:
        return cell(output[column.startsWith('output.') ? column.slice(7) : column]);
    }
  });
}

/** Reads what an earlier run wrote to `file`; an absent file is an empty run. */
export async function readPrevious(
  file: string,
  format: Format,
  columns: string[],
): Promise<{ previous: Map<string, Previous>; empty: boolean; cutShort: boolean }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { previous: new Map(), empty: true, cutShort: false };
    throw error;
  }
  const previous = new Map<string, Previous>();
  const note = (source: string, sha256: string, status: string) => {
    const key = rowKey(source, sha256);
    const entry = previous.get(key) ?? { completed: false, failures: 0 };
    if (status === 'completed') entry.completed = true;
    else entry.failures++;
    previous.set(key, entry);
  };
  if (format === 'jsonl') {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const row = JSON.parse(line) as ResultRow;
        note(row.source, row.sha256, row.status);
      } catch {
        // A line cut short by a killed run: that input is simply done again.
      }
    }
  } else {
    const [header, ...rows] = parseCsv(text);
    if (header && header.join(',') !== columns.join(',')) {
      throw new UsageError(
        `${file} has other columns (${header.join(',')}): write to a new file or use the same schema`,
      );
    }
    for (const row of rows) if (row.length === columns.length) note(row[0]!, row[1]!, row[3]!);
  }
  // A killed run may have left half a line: the next row must start on a line of its own.
  return { previous, empty: text.length === 0, cutShort: text.length > 0 && !text.endsWith('\n') };
}

/** Appends rows to a file (or writes them to stdout) as they finish. */
export class RowWriter {
  private constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly format: Format,
    private readonly columns: string[],
    private readonly owned: WriteStream | undefined,
  ) {}

  static async open(
    target: { file: string; empty: boolean; cutShort: boolean } | { stdout: NodeJS.WritableStream },
    format: Format,
    columns: string[],
  ): Promise<RowWriter> {
    const owned = 'file' in target ? createWriteStream(target.file, { flags: 'a' }) : undefined;
    const writer = new RowWriter(
      owned ?? (target as { stdout: NodeJS.WritableStream }).stdout,
      format,
      columns,
      owned,
    );
    if ('file' in target && target.cutShort) await writer.write(format === 'csv' ? '\r\n' : '\n');
    if (format === 'csv' && ('stdout' in target || target.empty))
      await writer.write(csvLine(columns));
    return writer;
  }

  async add(row: ResultRow): Promise<void> {
    await this.write(
      this.format === 'jsonl' ? `${JSON.stringify(row)}\n` : csvLine(csvValues(row, this.columns)),
    );
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.stream.write(text, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    const owned = this.owned;
    if (owned)
      await new Promise<void>((resolve, reject) =>
        owned.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
  }
}
