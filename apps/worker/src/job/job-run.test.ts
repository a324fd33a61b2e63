import type { Job } from 'bullmq';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logContextMixin } from '@xt/runtime';
import { databaseRetryAt, SHUTDOWN_REASON, stoppedForShutdown, withJobLog } from './job-run.ts';

describe('withJobLog', () => {
  it('names the extraction, the window, the attempt, the request and the trace', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    const logger = pino({}, stream);
    // A logger made at start-up, as shared code (sources, browser) logs through.
    const sharedLogger = pino({ mixin: logContextMixin }, stream);
    const job = { id: '7', attemptsMade: 1 } as Job;
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await withJobLog(
      logger,
      job,
      { extractionId: 'e1', requestId: 'r1', traceparent },
      { window: 3 },
      (log) => {
        log.info('from the job');
        sharedLogger.info('from shared code');
        return Promise.resolve();
      },
    );
    const expected = {
      extractionId: 'e1',
      window: 3,
      attempt: 2,
      requestId: 'r1',
      traceId: '0af7651916cd43dd8448eb211c80319c',
      jobId: '7',
    };
    expect(lines[0]).toMatchObject({ ...expected, msg: 'from the job' });
    expect(lines[1]).toMatchObject({ ...expected, msg: 'from shared code' });
  });
});

describe('interruptions', () => {
  it('tells a shutdown from any other abort', () => {
    const shutdown = new AbortController();
    shutdown.abort(SHUTDOWN_REASON);
    const deadline = new AbortController();
    deadline.abort(new Error('deadline'));
    expect(stoppedForShutdown(shutdown.signal)).toBe(true);
    expect(stoppedForShutdown(deadline.signal)).toBe(false);
    expect(stoppedForShutdown(undefined)).toBe(false);
  });

  it('puts a job back for 3 to 6 seconds while the database is away', () => {
    for (let i = 0; i < 50; i++) {
      const at = databaseRetryAt(1_000_000);
      expect(at).toBeGreaterThanOrEqual(1_003_000);
      expect(at).toBeLessThanOrEqual(1_006_000);
    }
  });
});
