import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { createDependencyOutages } from './outage.ts';

describe('createDependencyOutages', () => {
  it('logs one warning per outage, whichever connection notices it, and one recovery', () => {
    const lines: Array<{ msg: string; dependency?: string }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as { msg: string });
        done();
      },
    });
    const outages = createDependencyOutages(createLogger('info', 'test', { destination: sink }));
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    outages.redisEvents.onError(refused);
    outages.redisEvents.onError(refused);
    outages.redis.failed(refused);
    outages.postgresEvents.onConnectionError(refused);
    outages.postgresEvents.onConnect();
    outages.redisEvents.onReady();
    expect(lines.map((l) => l.msg)).toEqual([
      'redis connection lost',
      'postgres connection lost',
      'postgres available again',
      'redis available again',
    ]);
  });
});
