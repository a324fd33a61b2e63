import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import {
  catalogueProcessor,
  DELIVER_WEBHOOK_JOB,
  EXTRACT_JOB,
  EXTRACTION_QUEUE,
  extractJobPayload,
  extractJobStep,
  WEBHOOK_QUEUE,
  WINDOW_JOB,
  windowJobOptions,
  type ExtractJobPayload,
} from './catalogue.ts';

const job = (name: string, data: unknown) => ({ name, data }) as Job;

describe('catalogueProcessor', () => {
  it('hands each job its checked payload', async () => {
    const seen: ExtractJobPayload[] = [];
    const processor = catalogueProcessor(EXTRACTION_QUEUE, {
      [EXTRACT_JOB]: (_job, payload) => {
        seen.push(payload);
        return Promise.resolve('done');
      },
      [WINDOW_JOB]: () => Promise.resolve(),
    });
    const extractionId = randomUUID();
    await expect(processor(job(EXTRACT_JOB, { extractionId, requestId: 'r1' }))).resolves.toBe(
      'done',
    );
    expect(seen).toEqual([{ extractionId, requestId: 'r1' }]);
  });

  it('fails a job it has no handler for at once, without a retry', async () => {
    const processor = catalogueProcessor(WEBHOOK_QUEUE, {
      [DELIVER_WEBHOOK_JOB]: () => Promise.resolve(),
    });
    const failure = processor(job(EXTRACT_JOB, { extractionId: randomUUID() }));
    await expect(failure).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(failure).rejects.toThrow('queue "webhooks" has no job "extract"');
  });

  it('fails a payload its schema refuses at once, naming the field', async () => {
    const processor = catalogueProcessor(EXTRACTION_QUEUE, {
      [EXTRACT_JOB]: () => Promise.resolve(),
      [WINDOW_JOB]: () => Promise.resolve(),
    });
    const failure = processor(job(EXTRACT_JOB, { extractionId: 'not-a-uuid' }));
    await expect(failure).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(failure).rejects.toThrow(/extractionId/);
  });

  it('will not compile without a handler for every job kind of the queue', () => {
    // @ts-expect-error: the extraction queue's `extract` job has no handler
    catalogueProcessor(EXTRACTION_QUEUE, {});
    catalogueProcessor(WEBHOOK_QUEUE, {
      [DELIVER_WEBHOOK_JOB]: () => Promise.resolve(),
      // @ts-expect-error: `extract` is not a job of the webhook queue
      [EXTRACT_JOB]: () => Promise.resolve(),
    });
  });
});

describe('windowJobOptions', () => {
  const extractionId = randomUUID();
  const payload = {
    extractionId,
    index: 2,
    count: 3,
    firstPage: 81,
    lastPage: 100,
    pagesTotal: 100,
  };
  const parent = { id: extractionId, queue: 'bull:extractions' };

  it('makes the window a child of its extraction whose final failure fails the parent', () => {
    const opts = windowJobOptions(parent, payload, { attempts: 3, backoffMs: 1000, priority: 4 });
    expect(opts).toMatchObject({
      jobId: `${extractionId}-w2`,
      parent,
      failParentOnFailure: true,
      attempts: 3,
    });
  });

  it("queues each window like the account's next extraction", () => {
    expect(
      windowJobOptions(parent, payload, { attempts: 3, backoffMs: 1, priority: 4 }).priority,
    ).toBe(6);
    // A job enqueued without a priority still gives its windows one.
    expect(windowJobOptions(parent, payload, { attempts: 3, backoffMs: 1 }).priority).toBe(3);
  });
});

describe('extractJobStep', () => {
  const extractionId = randomUUID();
  const split = { pagesTotal: 100, splitPages: 40 };

  it('starts a new job at `extract` and a moved-on one at the step its data names', () => {
    expect(extractJobStep(extractJobPayload.parse({ extractionId }))).toBe('extract');
    expect(
      extractJobStep(
        extractJobPayload.parse({ extractionId, step: 'merge-windows', windows: split }),
      ),
    ).toBe('merge-windows');
  });

  it('reads data written before steps were named: `windows` alone means it was merging', () => {
    const before = extractJobPayload.parse({ extractionId, windows: split });
    expect(extractJobStep(before)).toBe('merge-windows');
    expect(before.windows).toEqual(split);
  });

  it('refuses a step it does not know', () => {
    expect(extractJobPayload.safeParse({ extractionId, step: 'polish' }).success).toBe(false);
  });
});
