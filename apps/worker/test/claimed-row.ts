/** A claimed row as the job steps see it, for their tests; each test overrides what it is about. */
import type { ExtractionRow } from '../src/job/lifecycle.ts';

export function claimedRow(overrides: Partial<ExtractionRow> = {}): ExtractionRow {
  const now = new Date('2026-11-27T10:00:00.000Z');
  return {
    id: '0b6f2a57-4f9c-4d55-9f0e-6f3c2c1d9a01',
    accountId: '7a1c1a0e-54a4-4f8e-8a57-2d5f3a5f6b10',
    schemaId: 'c1f1d0b2-3a5e-4b6f-9e8d-7c6b5a4f3e21',
    schemaName: 'Invoice',
    schemaStructure: {
      type: 'object',
      properties: { total: { type: 'number', required: true } },
    },
    sourceType: 'text',
    source: 'Total due: 12.50 EUR',
    instruction: null,
    metadata: {},
    file: null,
    format: null,
    fileRef: null,
    model: 'gpt-4.1',
    citationsRequested: false,
    citations: null,
    warnings: null,
    pageImages: null,
    status: 'processing',
    output: null,
    totalTokens: 0,
    charged: false,
    errorCode: null,
    errorMessage: null,
    attempts: 1,
    requestId: null,
    createdAt: now,
    updatedAt: now,
    startedAt: now,
    finishedAt: null,
    ...overrides,
  };
}
