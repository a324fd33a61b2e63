import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkChromium } from './startup-checks.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('start-up check of Chromium', () => {
  it('launches Chromium as the renderer will and says how it is isolated', async () => {
    const check = await checkChromium(CHROMIUM, {
      environment: { ...process.env, OPENAI_API_KEY: 'sk-startup-check' },
      // Only a root worker can apply it; set for another, the line would say it is not applied.
      user: process.getuid?.() === 0 ? 'nobody' : undefined,
    });
    expect(check.ok).toBe(true);
    const user = process.getuid?.() === 0 ? 'nobody' : os.userInfo().username;
    expect(check.isolation).toMatchObject({
      environment: 'allow-listed',
      user: expect.stringMatching(new RegExp(`^${user} \\(uid \\d+\\)$`)),
      sandbox: 'on',
    });
    expect(check.message).toMatch(
      new RegExp(
        `^Chromium [\\d.]+ at ${CHROMIUM}: environment allow-listed, user ${user} \\(uid \\d+\\), sandbox on$`,
      ),
    );
  });

  // BROWSER_USER is read only by a worker running as root.
  it.runIf(process.getuid?.() === 0)(
    'fails, naming the fix, when the browser user does not exist',
    async () => {
      const check = await checkChromium(CHROMIUM, { environment: {}, user: 'no-such-user-xt' });
      expect(check.ok).toBe(false);
      expect(check.message).toContain(
        'BROWSER_USER "no-such-user-xt" is not a user of this machine',
      );
    },
  );
});
