import type { Request, Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { errorHandler } from './error-handler.ts';
import { HttpError } from './errors.ts';

function run(err: unknown) {
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const sent: { status?: number; body?: unknown } = {};
  const res = {
    headersSent: false,
    setHeader: vi.fn(),
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
      return this;
    },
  };
  errorHandler(err, { log } as unknown as Request, res as unknown as Response, () => undefined);
  return { log, sent };
}

describe('errorHandler logging', () => {
  it("logs an extraction's failure answered by a create as one info line, no stack", () => {
    const failed = new HttpError(502, 'MODEL_UNAVAILABLE', 'No model provider is configured', {
      extra: { extractionId: 'e-1' },
    });
    const { log, sent } = run(failed);
    expect(log.error).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledWith(
      { extractionId: 'e-1', code: 'MODEL_UNAVAILABLE' },
      'extraction failed; answered 502',
    );
    expect(sent).toEqual({
      status: 502,
      body: {
        status: false,
        message: 'No model provider is configured',
        code: 'MODEL_UNAVAILABLE',
        extractionId: 'e-1',
      },
    });
  });

  it('still logs an error, with its stack, for a 5xx of the API itself', () => {
    const { log } = run(new HttpError(500, 'INTERNAL', 'broken'));
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(HttpError) }, 'broken');
  });
});
