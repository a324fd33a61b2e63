import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from './index.ts';

/** A server with few slots queues the rest inside, as llama.cpp does (issue #36). */

const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

function send(url: string, signal?: AbortSignal) {
  return fetch(`${url}/chat/completions`, { method: 'POST', body, signal }).then((r) => r.status);
}

describe('stand-in slots', () => {
  let standIn: ModelStandIn;
  beforeAll(async () => {
    standIn = await startModelStandIn({ dialect: { server: 'llamacpp', slots: 1 } });
  });
  afterAll(() => standIn.close());
  beforeEach(() => standIn.reset());

  it('works one at a time, first come first served, and counts the queue', async () => {
    standIn.setDefaultBehaviour({ delayMs: 30 });
    const finished: number[] = [];
    const all = [0, 1, 2, 3].map((i) =>
      send(standIn.url).then((status) => {
        finished.push(i);
        return status;
      }),
    );
    expect(await Promise.all(all)).toEqual([200, 200, 200, 200]);
    expect(finished).toEqual([0, 1, 2, 3]);
    expect(standIn.stats).toEqual({
      maxInFlight: 1,
      maxQueued: 3,
      abandoned: 0,
      queuedOnArrival: [0, 1, 2, 3],
    });
    standIn.setDefaultBehaviour({});
  });

  it('queues past its slots just the same when it tells nothing of them', async () => {
    standIn.setDialect({ slots: 1 });
    standIn.setDefaultBehaviour({ delayMs: 30 });
    const root = standIn.url.replace(/\/v1$/, '');
    expect((await fetch(`${root}/props`)).status).toBe(404);
    expect(await Promise.all([0, 1, 2].map(() => send(standIn.url)))).toEqual([200, 200, 200]);
    expect(standIn.stats).toMatchObject({ maxInFlight: 1, queuedOnArrival: [0, 1, 2] });
    standIn.setDefaultBehaviour({});
    standIn.setDialect({ server: 'llamacpp', slots: 1 });
  });

  it('counts requests abandoned while queued or worked, and frees their slot', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    standIn.setDefaultBehaviour({ gate: () => gate });
    const worked = new AbortController();
    const queued = new AbortController();
    const first = send(standIn.url, worked.signal).catch(() => 'aborted');
    await until(() => standIn.stats.maxInFlight === 1);
    const second = send(standIn.url, queued.signal).catch(() => 'aborted');
    await until(() => standIn.stats.maxQueued === 1);
    queued.abort();
    worked.abort();
    expect(await Promise.all([first, second])).toEqual(['aborted', 'aborted']);
    await until(() => standIn.stats.abandoned === 2);
    open();
    standIn.setDefaultBehaviour({});
    expect(await send(standIn.url)).toBe(200);
  });

  it('without slots works everything at once', async () => {
    standIn.setDialect({});
    standIn.setDefaultBehaviour({ delayMs: 30 });
    await Promise.all([0, 1, 2].map(() => send(standIn.url)));
    expect(standIn.stats).toMatchObject({ maxInFlight: 3, maxQueued: 0 });
    standIn.setDefaultBehaviour({});
    standIn.setDialect({ server: 'llamacpp', slots: 1 });
  });
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}
