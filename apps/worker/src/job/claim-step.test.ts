import { describe, expect, it } from 'vitest';
import { claimStep } from './claim-step.ts';
import { claimedRow } from '../../test/claimed-row.ts';
import type { ClaimResult } from './lifecycle.ts';

const claiming = (result: ClaimResult) => ({ claim: () => Promise.resolve(result) });

describe('claimStep', () => {
  it('runs a row it claimed', async () => {
    const row = claimedRow({ attempts: 3 });
    expect(await claimStep(claiming({ kind: 'claimed', row }), row.id, 3)).toEqual({
      next: 'run',
      row,
    });
  });

  it('skips a deleted row and a finished one, saying which', async () => {
    expect(await claimStep(claiming({ kind: 'gone' }), 'x', 3)).toEqual({
      next: 'skip',
      reason: 'deleted',
      status: 'deleted',
    });
    const done = claimedRow({ status: 'completed' });
    expect(await claimStep(claiming({ kind: 'final', row: done }), done.id, 3)).toEqual({
      next: 'skip',
      reason: 'duplicate',
      status: 'completed',
    });
  });

  it('gives up on a row claimed more often than attempts allow', async () => {
    const row = claimedRow({ attempts: 4 });
    const outcome = await claimStep(claiming({ kind: 'claimed', row }), row.id, 3);
    expect(outcome.next).toBe('exhausted');
  });
});
