import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { belongsTo, resolveConnection } from './config.ts';

let checkout: string;

beforeEach(async () => {
  checkout = await mkdtemp(path.join(os.tmpdir(), 'xt-config-test-'));
  await mkdir(path.join(checkout, '.data'));
  await writeFile(path.join(checkout, '.data', 'dev-api-key.txt'), 'sk_dev_checkout\n');
});

afterEach(async () => {
  await rm(checkout, { recursive: true, force: true });
});

const stack = (value: unknown) =>
  writeFile(path.join(checkout, '.data', 'stack.json'), JSON.stringify(value));

/** A pid that no process holds any more: one that has already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;

describe('resolveConnection', () => {
  it("uses a running npm start's loopback address with its own development key", async () => {
    await stack({ pid: process.pid, apiUrl: 'http://127.0.0.1:4100' });
    expect(await resolveConnection({}, checkout)).toEqual({
      baseUrl: 'http://127.0.0.1:4100',
      apiKey: 'sk_dev_checkout',
    });
    await stack({ pid: process.pid, apiUrl: 'http://[::1]:4101/' });
    expect((await resolveConnection({}, checkout)).baseUrl).toBe('http://[::1]:4101');
    await stack({ pid: process.pid, apiUrl: 'http://localhost:4102' });
    expect((await resolveConnection({}, checkout)).baseUrl).toBe('http://localhost:4102');
  });

  it('never takes an address off this machine from stack.json', async () => {
    for (const apiUrl of [
      'https://evil.example',
      'http://10.0.0.8:3000',
      'http://127.0.0.1.evil.example',
      'http://user:pw@127.0.0.1:3000',
      'file:///etc/passwd',
      'not a url',
    ]) {
      await stack({ pid: process.pid, apiUrl });
      expect((await resolveConnection({}, checkout)).baseUrl, apiUrl).toBe('http://127.0.0.1:3000');
    }
  });

  it('takes the address only while a positive pid is running', async () => {
    // kill(0, 0) and kill(-1, 0) "succeed" for the caller's own group: that is not an npm start.
    for (const pid of [0, -1, 1.5, '123', null, deadPid()]) {
      await stack({ pid, apiUrl: 'http://127.0.0.1:4100' });
      expect((await resolveConnection({}, checkout)).baseUrl, String(pid)).toBe(
        'http://127.0.0.1:3000',
      );
    }
  });

  it('never sends XT_API_KEY to an address a file named', async () => {
    await stack({ pid: 0, apiUrl: 'https://evil.example' });
    expect(await resolveConnection({ XT_API_KEY: 'sk_live_user' }, checkout)).toEqual({
      baseUrl: 'http://127.0.0.1:3000',
      apiKey: 'sk_live_user',
    });
    // Even a live, loopback stack.json: the environment's key is not the checkout's to aim.
    await stack({ pid: process.pid, apiUrl: 'http://127.0.0.1:4100' });
    expect((await resolveConnection({ XT_API_KEY: 'sk_live_user' }, checkout)).baseUrl).toBe(
      'http://127.0.0.1:3000',
    );
    expect(
      await resolveConnection(
        { XT_API_KEY: 'sk_live_user', XT_BASE_URL: 'https://xt.example.com' },
        checkout,
      ),
    ).toEqual({ baseUrl: 'https://xt.example.com', apiKey: 'sk_live_user' });
  });

  it('uses XT_BASE_URL over stack.json for the development key', async () => {
    await stack({ pid: process.pid, apiUrl: 'http://127.0.0.1:4100' });
    expect(await resolveConnection({ XT_BASE_URL: 'http://127.0.0.1:5000' }, checkout)).toEqual({
      baseUrl: 'http://127.0.0.1:5000',
      apiKey: 'sk_dev_checkout',
    });
  });

  it('names DATA_DIR when no development key is found', async () => {
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'xt-config-nowhere-'));
    try {
      await expect(resolveConnection({}, elsewhere)).rejects.toThrow(
        `set DATA_DIR to that npm start's data folder (no .data/dev-api-key.txt from ${elsewhere} upwards in a folder of yours that no one else can write)`,
      );
      await expect(resolveConnection({ DATA_DIR: 'data' }, elsewhere)).rejects.toThrow(
        `(DATA_DIR is ${path.join(elsewhere, 'data')}, which holds no dev-api-key.txt)`,
      );
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('a .data found upwards', () => {
  const inside = () => mkdir(path.join(checkout, 'work', 'inbox'), { recursive: true });
  const fromInside = () => resolveConnection({}, path.join(checkout, 'work', 'inbox'));

  it("is used when it is the user's and only theirs to write", async () => {
    await inside();
    expect((await fromInside()).apiKey).toBe('sk_dev_checkout');
    // Writable by the user's own group (one per user on most systems) is still only theirs.
    await chmod(path.join(checkout, '.data'), 0o775);
    expect((await fromInside()).apiKey).toBe('sk_dev_checkout');
  });

  it('is passed over when anyone may write to it', async () => {
    await inside();
    await chmod(path.join(checkout, '.data'), 0o777);
    await expect(fromInside()).rejects.toThrow(/^No API key/);
    // Named by the user, it is theirs to vouch for.
    expect((await resolveConnection({ DATA_DIR: '.data' }, checkout)).apiKey).toBe(
      'sk_dev_checkout',
    );
  });

  it.runIf(process.getuid?.() === 0)('is passed over when another user owns it', async () => {
    await inside();
    await chown(path.join(checkout, '.data'), 65534, 65534);
    await expect(fromInside()).rejects.toThrow(/^No API key/);
  });

  it('is judged by owner, other users and group as the rule says', () => {
    const user = { uid: 1000, gid: 1000 };
    expect(belongsTo({ uid: 1000, gid: 1000, mode: 0o40755 }, user)).toBe(true);
    expect(belongsTo({ uid: 1000, gid: 1000, mode: 0o40775 }, user)).toBe(true);
    expect(belongsTo({ uid: 1000, gid: 100, mode: 0o40755 }, user)).toBe(true);
    expect(belongsTo({ uid: 1000, gid: 100, mode: 0o40775 }, user)).toBe(false);
    expect(belongsTo({ uid: 1000, gid: 1000, mode: 0o41777 }, user)).toBe(false);
    expect(belongsTo({ uid: 1001, gid: 1000, mode: 0o40700 }, user)).toBe(false);
  });
});
