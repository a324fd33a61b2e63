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

  it('warns, with or without citations, that images were read as text for a text-only model', () => {
    const source = {
      parts: [{ kind: 'text' as const, text: '--- Page 1 ---\nTotal 12.50', unit: 1 }],
      grounding: {
        kind: 'pages' as const,
        pages: [
          {
            page: 1,
            ocr: true,
            lines: [
              {
                text: 'Total 12.50',
                box: [0.1, 0.2, 0.4, 0.25] as [number, number, number, number],
              },
            ],
          },
        ],
      },
      imagesAsText: { pages: 2, images: 0, leftOut: 1 },
    };
    const expected = {
      code: 'IMAGES_READ_AS_TEXT',
      path: '',
      message:
        'The model takes no images: 2 pages were read with OCR and sent as text. 1 image was left out.',
    };
    expect(groundOutput(result({ total: 12.5 }), source, false).warnings).toEqual([expected]);
    const cited = groundOutput(result({ total: 12.5 }), source, true);
    expect(cited.warnings).toEqual([expected]);
    expect(cited.citations?.['/total']).toMatchObject({ grounded: true, page: 1 });
    const image = { ...source, imagesAsText: { pages: 0, images: 1, leftOut: 0 } };
    expect(groundOutput(result({ total: 12.5 }), image, false).warnings?.[0]?.message).toBe(
      'The model takes no images: 1 image was read with OCR and sent as text.',
    );
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
