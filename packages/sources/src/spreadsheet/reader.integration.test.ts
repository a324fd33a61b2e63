import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormatName, PreparedSource } from '@xt/contract';
import { failureOf } from '@xt/testkit';
import {
  declaredMacroEnabled,
  openpyxlWorkbook,
  realCorpusDir,
  SAMPLE_WORKBOOK,
  workbookFiles,
} from '@xt/testkit/fixtures';
import { createDocumentConverter } from '../document/index.ts';
import { createPrepPool, type PrepPool } from '../prep-pool/index.ts';
import { createSpreadsheetReader, type SpreadsheetReader } from './reader.ts';

const converter = createDocumentConverter({
  memoryMb: 3072,
  timeoutMs: 120_000,
  concurrency: 1,
  environment: process.env,
});
const LIMITS = {
  maxCells: 200_000,
  archive: { maxExpandedBytes: 100 * 1024 * 1024, maxEntries: 10_000, maxRatio: 200 },
  convert: (bytes: Buffer, from: 'xls' | 'ods' | 'xlsx') => converter.convertToXlsx(bytes, from),
};

let pool: PrepPool;
let read: SpreadsheetReader;
let files: Record<'xlsx' | 'xls' | 'ods' | 'csv', Buffer>;

beforeAll(async () => {
  pool = createPrepPool({ size: 1, taskTimeoutMs: 120_000 });
  read = createSpreadsheetReader(pool, LIMITS, pino({ level: 'silent' }));
  files = await workbookFiles(SAMPLE_WORKBOOK, ['xlsx', 'xls', 'ods', 'csv']);
}, 300_000);
afterAll(() => pool.close());

const text = (prepared: PreparedSource) =>
  prepared.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n\n');

/** What Calc shows for the sample's Prices sheet (its dates written as ISO dates). */
const PRICES = [
  'Sheet 1 of 3: "Prices"',
  '| Row | A | B | C | D (hidden column) | E | F | G | H | I |',
  '|---|---|---|---|---|---|---|---|---|---|',
  '| 1 | Price list 2024 |  |  |  |  |  |  |  |  |',
  '| 2 | SKU | Description | Unit price | Cost | Qty | Amount | Since | Discount | Net |',
  '| 3 | A-100 | Widget | 1,234.50 | 800 | 3 | 3,703.50 | 2024-03-05 | 12.5% | 1,234.50 € |',
  '| 4 (hidden row) | A-101 | Gadget with two lines | 99.99 | 50 | 1 | 99.99 | 2023-12-31 | 5.0% | TRUE |',
  '| 5 | A-102 | Gizmo | 0.50 | 0.2 | 10 | 5.00 |  |  | FALSE |',
].join('\n');

describe('spreadsheets as LibreOffice wrote them', () => {
  it.each(['xlsx', 'xls', 'ods'] as const)(
    'reads %s: every sheet in order, values as displayed, hidden parts marked',
    async (format) => {
      const prepared = await read(files[format], format, {});
      expect(text(prepared)).toBe(
        [
          PRICES,
          'Sheet 2 of 3: "Costs" (hidden sheet)\n| Row | A | B |\n|---|---|---|\n| 1 | Secret | 42 |',
          'Sheet 3 of 3: "Notes"\n| Row | A | B |\n|---|---|---|\n| 1 | Line one Line two |  |\n| 2 |  | B2 only |',
        ].join('\n\n'),
      );
    },
    180_000,
  );

  it('reads a macro-enabled workbook (XLSM) as the XLSX it is', async () => {
    const xlsm = declaredMacroEnabled(files.xlsx, 'xlsx');
    const [asXlsm, asXlsx] = await Promise.all([
      read(xlsm, 'xlsx', {}),
      read(files.xlsx, 'xlsx', {}),
    ]);
    expect(text(asXlsm)).toBe(text(asXlsx));
  });

  it('reads a CSV file as its one sheet, fields as written', async () => {
    // Calc wrote the CSV as it shows the cells, the euro amount in the German way it names.
    const prepared = await read(files.csv, 'csv', {});
    expect(text(prepared)).toContain(
      '| 3 | A-100 | Widget | 1,234.50 | 800 | 3 | 3,703.50 | 05/03/2024 | 12.5% | 1.234,50 € |',
    );
    expect(text(prepared).split('\n')[0]).toBe('Sheet 1 of 1: "Sheet1"');
  });

  it('keeps the cells as read when citations are asked for', async () => {
    const prepared = await read(files.xlsx, 'xlsx', { citations: true });
    expect(prepared.grounding?.kind).toBe('sheets');
    const sheets = prepared.grounding?.kind === 'sheets' ? prepared.grounding.sheets : [];
    expect(sheets.map((s) => [s.name, s.hidden ?? false])).toEqual([
      ['Prices', false],
      ['Costs', true],
      ['Notes', false],
    ]);
    expect(sheets[0]!.rows[2]).toMatchObject({ row: 3 });
    expect(sheets[0]!.rows[2]!.cells[5]).toEqual({ col: 6, text: '3,703.50' });
    expect(sheets[0]!.rows[3]).toMatchObject({ row: 4, hidden: true });
  });

  it('repeats the rows frozen at the top in every window of a long sheet', async () => {
    const xlsx = await openpyxlWorkbook(`
ws = wb.active
ws.title = 'Orders'
ws.append(['Order', 'Customer', 'Total'])
ws.append(['', '(all amounts in EUR)', ''])
for i in range(450):
    ws.append([f'ORD-{i:04d}', f'Customer {i % 7}', i * 10])
ws.freeze_panes = 'A3'
`);
    const parts = (await read(xlsx, 'xlsx', {})).parts.map((p) =>
      p.kind === 'text' ? p.text : '',
    );
    expect(parts).toHaveLength(3);
    for (const part of parts.slice(1)) {
      expect(part.split('\n')[0]).toMatch(/\(header rows 1, 2 repeated\)$/);
      expect(part.split('\n').slice(3, 5)).toEqual([
        '| 1 | Order | Customer | Total |',
        '| 2 |  | (all amounts in EUR) |  |',
      ]);
    }
  });

  it('shows the stored result of a formula that computed 0, FALSE or nothing', async () => {
    // ExcelJS's cell value drops falsy results; the reader takes them from the cell itself.
    const xlsx = await workbookFiles(
      [
        {
          name: 'F',
          rows: [
            ['Zero', 'Flag', 'Blank'],
            [
              { value: 0, formula: 'of:=1-1' },
              { value: false, formula: 'of:=1>2' },
              { value: '', formula: 'of:=""' },
            ],
          ],
        },
      ],
      ['xlsx'],
    );
    expect(text(await read(xlsx.xlsx, 'xlsx', {}))).toContain('| 2 | 0 | FALSE |  |');
  });
});

describe('the real sheets in the corpus', () => {
  const dir = realCorpusDir('office');
  it.skipIf(!dir)(
    'reads every XLSX and XLS, and refuses the password-protected one saying so',
    async () => {
      const names = readdirSync(dir!).filter((n) => /\.xlsx?$/.test(n));
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const bytes = readFileSync(path.join(dir!, name));
        // The corpus's protected workbook is Office's encrypted wrapper: detected as such.
        const format: FormatName = name.includes('protected')
          ? 'office-encrypted'
          : (path.extname(name).slice(1) as FormatName);
        if (format === 'office-encrypted') {
          const err = await failureOf(read(bytes, format, {}));
          expect(err.code).toBe('SOURCE_UNREADABLE');
          expect(err.message).toMatch(/password-protected/);
          continue;
        }
        const prepared = await read(bytes, format, {});
        expect(prepared.parts.length, name).toBeGreaterThan(0);
        expect(text(prepared), name).toMatch(/^Sheet 1 of \d+: "/);
      }
    },
    600_000,
  );
});
