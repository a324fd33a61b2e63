import { describe, expect, it } from 'vitest';
import { asksForDraft, draftAnswer } from './draft-answer.ts';

describe('draftAnswer', () => {
  it('proposes a field per label, typed by its value, and a list per Markdown table', () => {
    const lines = [
      '# Invoice',
      'Invoice number: INV-7',
      '**Issue date**: 2026-11-21',
      '取引先: 株式会社サンプル',
      'Total due: 1,250.00 EUR',
      'Paid: no',
      '## Line items',
      '| Description | Quantity | Amount |',
      '|---|---|---|',
      '| Paper | 2 | 10.50 |',
      'Invoice number: again',
    ];
    const fields = draftAnswer(lines).proposedFields!;
    expect(fields.map((f) => [f.name, f.type])).toEqual([
      ['invoice_number', 'string'],
      ['issue_date', 'date'],
      ['取引先', 'string'],
      ['total_due', 'number'],
      ['paid', 'boolean'],
      ['line_items', 'list'],
    ]);
    expect(fields.at(-1)?.columns?.map((c) => [c.name, c.type])).toEqual([
      ['description', 'string'],
      ['quantity', 'integer'],
      ['amount', 'number'],
    ]);
  });

  it('knows the drafting structure from any other', () => {
    expect(asksForDraft({ type: 'object', properties: { proposedFields: {} } })).toBe(true);
    expect(asksForDraft({ type: 'object', properties: { total: {} } })).toBe(false);
  });
});
