import { describe, expect, it } from 'vitest';
import { helperUser } from './system-user.ts';

const node = { name: 'node', uid: 1000, gid: 1000 };

describe('helperUser', () => {
  it('runs a helper as a worker that is not root itself, saying so when another user was set', async () => {
    await expect(helperUser(undefined, 'BROWSER_USER', 'Chromium', node)).resolves.toEqual({
      user: node,
    });
    await expect(helperUser('node', 'BROWSER_USER', 'Chromium', node)).resolves.toEqual({
      user: node,
    });
    await expect(helperUser('1000', 'BROWSER_USER', 'Chromium', node)).resolves.toEqual({
      user: node,
    });
    const { user, notApplied } = await helperUser('xt-browser', 'BROWSER_USER', 'Chromium', node);
    expect(user).toEqual(node);
    expect(notApplied).toBe(
      "BROWSER_USER=xt-browser is not applied: the worker runs as node (uid 1000), not root, so Chromium runs as the worker's own user and could read its environment",
    );
  });
});
