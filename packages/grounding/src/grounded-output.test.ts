import { describe, expect, it } from 'vitest';
import { groundOutput, type ModelAnswer } from './grounded-output.ts';

const result = (output: unknown, truncated: string[] = []): ModelAnswer => ({
  output,
  annotations: { quotes: new Map(), probabilities: new Map([['/total', 0.9]]) },
  truncated,
});

describe('groundOutput', () => {
  it('cites only when asked, and warns about what was left undone either way', () => {
    const source = {
      parts: [{ kind: 'text' as const, text: 'Total 12.50' }],
      grounding: { kind: 'text' as const, content: 'Total 12.50' },
      truncated: { message: 'Only the first 10 pages were read.' },
    };
    const without = groundOutput(result({ total: 12.5, rows: [] }, ['/rows']), source, false);
    expect(without.citations).toBeNull();
    expect(without.warnings?.map((w) => [w.code, w.path])).toEqual([
      ['OUTPUT_TRUNCATED', '/rows'],
      ['SOURCE_TRUNCATED', ''],
    ]);
    const cited = groundOutput(result({ total: 12.5 }), source, true);
    expect(cited.citations?.['/total']).toMatchObject({ grounded: true, start: 6, end: 11 });
    expect(cited.citations?.['/total']?.confidence).toBeCloseTo(0.9);
  });

  it('names every value found nowhere in one UNGROUNDED_VALUES warning', () => {
    const source = {
      parts: [{ kind: 'text' as const, text: 'Total 12.50' }],
      grounding: { kind: 'text' as const, content: 'Total 12.50' },
    };
    const { warnings, citations } = groundOutput(
      result({ total: 12.5, currency: 'USD', payee: 'Globex' }),
      source,
      true,
    );
    expect(citations?.['/currency']).toMatchObject({ grounded: false, quote: null });
    expect(warnings).toEqual([
      {
        code: 'UNGROUNDED_VALUES',
        path: '',
        message: '2 values were found nowhere in the source: /currency, /payee.',
      },
    ]);
  });

  it('has no warnings at all when nothing was left undone', () => {
    const source = { parts: [], grounding: { kind: 'text' as const, content: 'Total 12.50' } };
    expect(groundOutput(result({ total: 12.5 }), source, true).warnings).toBeNull();
  });

  it('says when a document was read with its tracked changes accepted', () => {
    const message = 'The document has tracked changes (2 …); it was read with them accepted.';
    const source = { parts: [], revisions: { message } };
    expect(groundOutput(result({ vendor: 'New Vendor GmbH' }), source, false).warnings).toEqual([
      { code: 'REVISIONS_ACCEPTED', path: '', message },
    ]);
  });
});
