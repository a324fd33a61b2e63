import { DelayedError, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { fairPerAccount } from './fair-share.ts';

interface FakeJob {
  id: string;
  delayedUntil?: number;
  promoted: number;
  moveToDelayed(at: number): Promise<void>;
  promote(): Promise<void>;
}

function fakeJob(id: string): FakeJob {
  return {
    id,
    promoted: 0,
    moveToDelayed(at) {
      this.delayedUntil = at;
      return Promise.resolve();
    },
    promote() {
      this.promoted++;
      return Promise.resolve();
    },
  };
}

/** A handler whose calls stay open until the test ends them. */
function heldHandler() {
  const open = new Map<string, () => void>();
  const handler = (job: Job) =>
    new Promise<string>((resolve) => open.set(job.id ?? '', () => resolve('delivered')));
  return { handler, open };
}

const asJob = (j: FakeJob) => j as unknown as Job;

describe('fairPerAccount', () => {
  it("runs at most its share of one account's jobs, and every other account's at once", async () => {
    const { handler, open } = heldHandler();
    const run = fairPerAccount(handler, { perAccount: 2, attemptMs: 10_000, now: () => 1_000 });
    const a = [1, 2, 3, 4].map((i) => fakeJob(`a${i}`));
    const running = a.slice(0, 2).map((j) => run(asJob(j), { accountId: 'A' }));
    await expect(run(asJob(a[2]!), { accountId: 'A' })).rejects.toBeInstanceOf(DelayedError);
    await expect(run(asJob(a[3]!), { accountId: 'A' })).rejects.toBeInstanceOf(DelayedError);
    // Set aside until a slot must have freed, the second one attemptMs / perAccount later.
    expect(a[2]!.delayedUntil).toBe(11_000);
    expect(a[3]!.delayedUntil).toBe(16_000);

    const b = fakeJob('b1');
    const ofB = run(asJob(b), { accountId: 'B' });
    expect([...open.keys()]).toEqual(['a1', 'a2', 'b1']);
    open.get('b1')!();
    await expect(ofB).resolves.toBe('delivered');

    // A slot of A frees: the oldest job set aside is brought back, and only that one.
    open.get('a1')!();
    await running[0];
    expect(a[2]!.promoted).toBe(1);
    expect(a[3]!.promoted).toBe(0);
    const again = run(asJob(a[2]!), { accountId: 'A' });
    expect(open.has('a3')).toBe(true);
    open.get('a2')!();
    open.get('a3')!();
    await Promise.all([running[1], again]);
    expect(a[3]!.promoted).toBe(1);
  });

  it('tries the next job set aside when one cannot be brought back', async () => {
    const { handler, open } = heldHandler();
    const run = fairPerAccount(handler, { perAccount: 1, attemptMs: 1_000, now: () => 0 });
    const first = fakeJob('x1');
    const gone = fakeJob('x2');
    gone.promote = () => Promise.reject(new Error('Job x2 is not in the delayed state'));
    const next = fakeJob('x3');
    const running = run(asJob(first), { accountId: 'X' });
    await expect(run(asJob(gone), { accountId: 'X' })).rejects.toBeInstanceOf(DelayedError);
    await expect(run(asJob(next), { accountId: 'X' })).rejects.toBeInstanceOf(DelayedError);
    open.get('x1')!();
    await running;
    await expect.poll(() => next.promoted).toBe(1);
  });

  it('runs a job without an account unshared', async () => {
    const { handler, open } = heldHandler();
    const run = fairPerAccount(handler, { perAccount: 1, attemptMs: 1_000 });
    const jobs = [fakeJob('u1'), fakeJob('u2')];
    const running = jobs.map((j) => run(asJob(j), { accountId: undefined }));
    expect([...open.keys()]).toEqual(['u1', 'u2']);
    for (const end of open.values()) end();
    await Promise.all(running);
  });
});
