import { describe, expect, it } from 'vitest';
import type { Citations, ExtractionWarning } from './citations.ts';
import { serializeListRecord, serializeSingleRecord, type StoredExtraction } from './records.ts';

const citations: Citations = {
  '/total': {
    grounded: true,
    quote: '12.50',
    page: null,
    boxes: [],
    start: 7,
    end: 12,
    confidence: null,
  },
};
const warnings: ExtractionWarning[] = [
  { code: 'OUTPUT_TRUNCATED', path: '/lines', message: 'the answer hit the output limit' },
];

const row = (over: Partial<StoredExtraction>): StoredExtraction => ({
  id: '6f1c2b1e-8f7a-4a57-9a3e-2f4b8c1d0e9a',
  schemaId: '7f1c2b1e-8f7a-4a57-9a3e-2f4b8c1d0e9a',
  sourceType: 'text',
  source: 'Total: 12.50',
  instruction: null,
  status: 'completed',
  output: { total: 12.5 },
  totalTokens: 10,
  inputTokens: 8,
  outputTokens: 2,
  cachedInputTokens: 0,
  costUsd: 0.000032,
  charged: true,
  errorCode: null,
  errorMessage: null,
  metadata: {},
  file: null,
  format: null,
  citationsRequested: false,
  citations: null,
  warnings: null,
  reusedFrom: null,
  priority: 'standard',
  pagesDone: 0,
  pagesTotal: 0,
  createdAt: new Date('2026-11-25T10:00:00Z'),
  updatedAt: new Date('2026-11-25T10:00:01Z'),
  ...over,
});

const both = (r: StoredExtraction) => [serializeSingleRecord(r), serializeListRecord(r)];

describe('citations and warnings in the records', () => {
  it('are absent when citations were not asked for and nothing was left undone', () => {
    for (const record of both(row({ citations, warnings: [] }))) {
      expect(record).not.toHaveProperty('citations');
      expect(record).not.toHaveProperty('warnings');
    }
  });

  it('show citations: null until completed, then what was stored', () => {
    for (const status of ['pending', 'processing', 'failed'] as const)
      for (const record of both(row({ status, citationsRequested: true, citations, warnings })))
        expect(record).toMatchObject({ citations: null });
    for (const record of both(row({ citationsRequested: true, citations, warnings })))
      expect(record).toMatchObject({ citations, warnings });
  });

  it('show warnings without citations when some were stored', () => {
    for (const record of both(row({ warnings }))) {
      expect(record).not.toHaveProperty('citations');
      expect(record.warnings).toEqual(warnings);
    }
  });
});

describe('format', () => {
  it('is shown beside a file source in both records, and absent otherwise', () => {
    const file = { name: 'a.docx', size: 10, contentType: 'x', sha256: 'a'.repeat(64) };
    const docx = row({ sourceType: 'document', source: 'a.docx', file, format: 'docx' });
    expect(serializeListRecord(docx).input).toMatchObject({ type: 'document', format: 'docx' });
    expect(serializeSingleRecord(docx).source).toMatchObject({
      type: 'document',
      format: 'docx',
    });
    expect(serializeListRecord(row({})).input).not.toHaveProperty('format');
    expect(serializeSingleRecord(row({})).source).not.toHaveProperty('format');
  });
});

describe('reused in the records', () => {
  it('is absent for work of its own and names the original for a reused answer', () => {
    for (const record of both(row({}))) expect(record).not.toHaveProperty('reused');
    const original = '1f1c2b1e-8f7a-4a57-9a3e-2f4b8c1d0e9a';
    for (const record of both(row({ reusedFrom: original, charged: false, totalTokens: 0 })))
      expect(record).toMatchObject({ reused: { extractionId: original }, charged: false });
  });
});

describe('priority in the records', () => {
  it('shows how the extraction was asked to run, in both records', () => {
    for (const record of both(row({}))) expect(record.priority).toBe('standard');
    for (const record of both(row({ priority: 'batch' }))) expect(record.priority).toBe('batch');
  });
});

describe('progress in the records', () => {
  it('is shown while processing only, never more pages done than in all', () => {
    const processing = row({ status: 'processing', output: null, pagesDone: 3, pagesTotal: 240 });
    expect(serializeSingleRecord(processing).progress).toEqual({ pagesDone: 3, pagesTotal: 240 });
    expect(serializeListRecord(processing).progress).toEqual({ pagesDone: 3, pagesTotal: 240 });
    const overrun = row({ status: 'processing', pagesDone: 9, pagesTotal: 8 });
    expect(serializeSingleRecord(overrun).progress).toEqual({ pagesDone: 8, pagesTotal: 8 });
    for (const status of ['pending', 'completed', 'failed'] as const) {
      const other = row({ status, pagesDone: 8, pagesTotal: 8 });
      expect(serializeSingleRecord(other)).not.toHaveProperty('progress');
      expect(serializeListRecord(other)).not.toHaveProperty('progress');
    }
  });
});

describe('usage in the records', () => {
  it('splits the tokens as the provider did and shows their cost, in both records', () => {
    const spent = row({
      totalTokens: 3_000,
      inputTokens: 2_500,
      outputTokens: 500,
      cachedInputTokens: 1_024,
      costUsd: 0.1 + 0.2, // float noise is rounded away
    });
    for (const record of both(spent))
      expect(record.usage).toEqual({
        inputTokens: 2_500,
        outputTokens: 500,
        cachedInputTokens: 1_024,
        estimatedCostUsd: 0.3,
      });
  });

  it('is all zero for a reused answer', () => {
    const copy = row({
      reusedFrom: '1f1c2b1e-8f7a-4a57-9a3e-2f4b8c1d0e9a',
      charged: false,
      totalTokens: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
    });
    for (const record of both(copy))
      expect(record.usage).toEqual({
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 0,
        estimatedCostUsd: 0,
      });
  });
});
