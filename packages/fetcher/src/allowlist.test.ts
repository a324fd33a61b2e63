import { failureOf } from '@xt/testkit';
import { describe, expect, it } from 'vitest';
import { ExtractionFailure } from '@xt/contract';
import { isAllowlisted, parseAllowlist } from './allowlist.ts';
import { resolveAndCheck, type LookupAll } from './resolve.ts';

describe('parseAllowlist', () => {
  it('reads host, host:port, [v6]:port, bare IPv6 and CIDR entries, ignoring blanks', () => {
    const list = parseAllowlist(
      ' fixtures.test , 127.0.0.1:4010,,[::1]:8080, ::1 ,10.0.0.0/8,fd00::/8 ',
    );
    expect(list.entries).toHaveLength(6);
  });

  it('is empty for an empty setting', () => {
    expect(parseAllowlist('').entries).toEqual([]);
    expect(isAllowlisted(parseAllowlist(''), { host: '127.0.0.1', port: 80 })).toBe(false);
  });

  it.each(['10.0.0.0/33', 'host:99999', 'host:abc', 'bad host', 'a/b', '[nope]:80', 'http://x'])(
    'rejects the malformed entry %j',
    (spec) => {
      expect(() => parseAllowlist(spec)).toThrow(/SOURCE_ALLOWLIST/);
    },
  );
});

describe('isAllowlisted', () => {
  const list = parseAllowlist('fixtures.test,127.0.0.1:4010,[::1]:8080,10.0.0.0/8');

  it.each([
    [{ host: 'fixtures.test', port: 1 }, true],
    [{ host: 'FIXTURES.test.', port: 443 }, true],
    [{ host: 'other.test', port: 443, address: '127.0.0.1' }, false],
    [{ host: '127.0.0.1', port: 4010 }, true],
    [{ host: '127.0.0.1', port: 4011 }, false],
    // A name resolving to the allow-listed address and port reaches the same server.
    [{ host: 'alias.test', port: 4010, address: '127.0.0.1' }, true],
    [{ host: '[::1]', port: 8080 }, true],
    [{ host: '0:0:0:0:0:0:0:1', port: 8080 }, true],
    [{ host: '::1', port: 8081 }, false],
    [{ host: 'db.test', port: 5432, address: '10.1.2.3' }, true],
    [{ host: '10.200.0.1', port: 80 }, true],
    [{ host: 'db.test', port: 5432, address: '::ffff:10.1.2.3' }, true],
    [{ host: 'db.test', port: 5432, address: '11.0.0.1' }, false],
    [{ host: 'db.test', port: 5432 }, false],
  ])('%j → %s', (target, expected) => {
    expect(isAllowlisted(list, target)).toBe(expected);
  });
});

describe('resolveAndCheck', () => {
  const none = parseAllowlist('');
  const fixed =
    (answers: string[]): LookupAll =>
    () =>
      Promise.resolve(
        answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
  const failing =
    (code: string): LookupAll =>
    () =>
      Promise.reject(Object.assign(new Error(code), { code }));

  it('refuses a name resolving to a private address without naming the address', async () => {
    const refused = await failureOf(
      resolveAndCheck('intranet.example', 443, none, { lookup: fixed(['10.20.30.40']) }),
    );
    expect(refused.code).toBe('SOURCE_FORBIDDEN');
    expect(refused.message).toMatch(/intranet\.example resolves to a non-public address/);
    expect(refused.message).not.toContain('10.20.30.40');
    expect(refused.message).not.toMatch(/private/);
  });

  it('reaches localhost at 127.0.0.1, asking no resolver, as its allow-list entry names it', async () => {
    const lookup: LookupAll = () => Promise.resolve([{ address: '::1', family: 6 }]);
    const allowlist = parseAllowlist('127.0.0.1:4010');
    for (const host of ['localhost', 'app.localhost', 'LOCALHOST.'])
      await expect(resolveAndCheck(host, 4010, allowlist, { lookup })).resolves.toEqual({
        address: '127.0.0.1',
        family: 4,
      });
    const refused = await failureOf(resolveAndCheck('localhost', 4011, allowlist, { lookup }));
    expect(refused.code).toBe('SOURCE_FORBIDDEN');
  });

  it('returns a public literal without any lookup', async () => {
    const lookup: LookupAll = () => Promise.reject(new Error('must not be called'));
    await expect(resolveAndCheck('8.8.8.8', 80, none, { lookup })).resolves.toEqual({
      address: '8.8.8.8',
      family: 4,
    });
    await expect(resolveAndCheck('[2606:4700::1]', 443, none, { lookup })).resolves.toEqual({
      address: '2606:4700::1',
      family: 6,
    });
  });

  it('returns the first answer of a public name', async () => {
    const got = await resolveAndCheck('example.test', 80, none, {
      lookup: fixed(['2606:4700::1', '93.184.216.34']),
    });
    expect(got).toEqual({ address: '2606:4700::1', family: 6 });
  });

  it('lets an allow-listed private answer through', async () => {
    const got = await resolveAndCheck('fixtures.test', 80, parseAllowlist('fixtures.test'), {
      lookup: fixed(['127.0.0.1']),
    });
    expect(got.address).toBe('127.0.0.1');
  });

  it.each([
    ['ENOTFOUND', false],
    ['EAI_AGAIN', true],
  ])('maps a %s lookup failure to SOURCE_UNREACHABLE (retryable %s)', async (code, retryable) => {
    const err: unknown = await resolveAndCheck('x.test', 80, none, { lookup: failing(code) }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExtractionFailure);
    expect(err).toMatchObject({ code: 'SOURCE_UNREACHABLE', retryable });
  });

  it('treats an empty answer as unresolvable', async () => {
    await expect(resolveAndCheck('x.test', 80, none, { lookup: fixed([]) })).rejects.toMatchObject({
      code: 'SOURCE_UNREACHABLE',
    });
  });
});
