import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { startPeriodic } from './periodic.ts';

function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
  );
  return { logger, lines, warnings: () => lines.filter((l) => l.level === 40) };
}

/** A pass the test finishes by hand, to hold it running across timer ticks. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('startPeriodic', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('never overlaps a slow pass with the next one', async () => {
    const { logger } = capturingLogger();
    let active = 0;
    let most = 0;
    let passes = 0;
    const gates: ReturnType<typeof deferred>[] = [];
    const loop = startPeriodic(
      async () => {
        passes += 1;
        active += 1;
        most = Math.max(most, active);
        const gate = deferred();
        gates.push(gate);
        await gate.promise;
        active -= 1;
      },
      { name: 'test', intervalMs: 100, logger, firstDelayMs: 0 },
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(1);
    gates[0]?.resolve();
    await vi.advanceTimersByTimeAsync(100);
    expect(passes).toBe(2);
    expect(most).toBe(1);
    gates[1]?.resolve();
    await loop.stop();
  });

  it('stop() waits for the running pass and schedules no other', async () => {
    const { logger } = capturingLogger();
    const gate = deferred();
    let passes = 0;
    let finished = false;
    const loop = startPeriodic(
      async () => {
        passes += 1;
        await gate.promise;
        finished = true;
      },
      { name: 'test', intervalMs: 100, logger, firstDelayMs: 0 },
    );
    await vi.advanceTimersByTimeAsync(1);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(500);
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(1);
  });

  it('reports an outage once and its end once; other failures each time', async () => {
    const { logger, lines, warnings } = capturingLogger();
    const results: ('outage' | 'bug' | 'ok')[] = ['outage', 'outage', 'outage', 'ok', 'bug', 'bug'];
    const loop = startPeriodic(
      () => {
        const next = results.shift() ?? 'ok';
        if (next === 'outage')
          return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { outage: true }));
        if (next === 'bug') return Promise.reject(new Error('unexpected'));
        return Promise.resolve();
      },
      {
        name: 'sweep',
        intervalMs: 100,
        logger,
        firstDelayMs: 0,
        isOutage: (err) => (err as { outage?: boolean }).outage === true,
      },
    );
    await vi.advanceTimersByTimeAsync(1_000);
    await loop.stop();
    const warned = warnings().map((l) => l.msg);
    expect(warned).toEqual([
      'sweep failing; retrying every interval',
      'sweep pass failed',
      'sweep pass failed',
    ]);
    expect(lines.filter((l) => l.msg === 'sweep available again')).toHaveLength(1);
  });

  it('spreads each wait by up to the jitter fraction', async () => {
    const { logger } = capturingLogger();
    const at: number[] = [];
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const loop = startPeriodic(() => Promise.resolve(at.push(Date.now())), {
      name: 'test',
      intervalMs: 1_000,
      logger,
      firstDelayMs: 0,
      jitter: 0.2,
    });
    await vi.advanceTimersByTimeAsync(3_500);
    await loop.stop();
    random.mockRestore();
    expect(at.slice(1).map((t, i) => t - (at[i] ?? 0))).toEqual([1_100, 1_100, 1_100]);
  });
});
