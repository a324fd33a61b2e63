import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseConfig } from './config-core.ts';
import { parseEnv } from './env.ts';
import { parseRedisUrl } from './redis-url.ts';

const schema = z.object({
  REDIS_URL: baseConfig.REDIS_URL,
  QUEUE_PREFIX: baseConfig.QUEUE_PREFIX,
});
const load = (env: Record<string, string>) => parseEnv(schema, env);

describe('REDIS_URL', () => {
  it('passes one server through as written, for ioredis to read', () => {
    for (const url of ['redis://127.0.0.1:6379', 'rediss://u:p@cache.example:6380/2'])
      expect(parseRedisUrl(url)).toEqual({ kind: 'server', url });
  });

  it('reads a cluster: every node, credentials, TLS', () => {
    expect(parseRedisUrl('redis+cluster://10.0.0.1:7000,10.0.0.2:7001,[::1]:7002,h4/')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
        { host: 'h4', port: 6379 },
      ],
      tls: false,
    });
    expect(parseRedisUrl('rediss+cluster://app:p%40ss@a:7000,b:7000')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7000 },
      ],
      username: 'app',
      password: 'p@ss',
      tls: true,
    });
    // As ioredis reads `redis://secret@host`: a password alone.
    expect(parseRedisUrl('redis+cluster://secret@a:7000')).toMatchObject({ password: 'secret' });
    expect(parseRedisUrl('redis+cluster://:secret@a:7000')).not.toHaveProperty('username');
  });

  it('reads Sentinel: the sentinels, the master, its database, both sets of credentials', () => {
    expect(
      parseRedisUrl(
        'redis+sentinel://:master-pw@s1:26379,s2,s3:26380/mymaster/3?sentinelPassword=s%26pw',
      ),
    ).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
        { host: 's3', port: 26380 },
      ],
      masterName: 'mymaster',
      db: 3,
      password: 'master-pw',
      sentinelPassword: 's&pw',
      tls: false,
    });
    expect(parseRedisUrl('rediss+sentinel://s1/m')).toMatchObject({ db: 0, tls: true });
  });

  it.each([
    ['http://h:6379', /REDIS_URL: must be one of redis:\/\/host:port/],
    ['h:6379', /REDIS_URL: must be one of/],
    ['redis+shard://h:1', /REDIS_URL: has an unknown scheme "redis\+shard:"/],
    ['redis://', /REDIS_URL: (is not a valid URL|names no host)/],
    ['redis+cluster://', /REDIS_URL: names no host/],
    ['redis+cluster://a:7000,,b:7000', /REDIS_URL: has an empty host/],
    ['redis+cluster://a:7000,b:70000', /REDIS_URL: has a bad port "70000"/],
    ['redis+cluster://a:x', /REDIS_URL: has a bad port "x"/],
    ['redis+cluster://a:7000/1', /REDIS_URL: of a cluster takes no path/],
    ['redis+cluster://[::1:7000', /REDIS_URL: has an IPv6 address without its closing bracket/],
    ['redis+sentinel://s1:26379', /REDIS_URL: of Sentinel must name the master/],
    ['redis+sentinel://s1/m/x', /REDIS_URL: of Sentinel takes the master name and at most/],
    ['redis+sentinel://s1/m?password=x', /REDIS_URL: of Sentinel takes only .* not password/],
    ['redis+cluster://u:%zz@a:7000', /REDIS_URL: has a badly percent-encoded password/],
  ])('refuses %s, naming REDIS_URL and what is wrong', (url, message) => {
    expect(() => load({ REDIS_URL: url })).toThrow(message);
  });

  it('never repeats the password in its message', () => {
    expect(() => load({ REDIS_URL: 'redis+cluster://u:hunter2@a:99999' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});

describe('QUEUE_PREFIX', () => {
  it('is put in braces, a hash tag that keeps every key in one cluster slot', () => {
    const url = 'redis://h:6379';
    expect(load({ REDIS_URL: url }).QUEUE_PREFIX).toBe('{xt}');
    expect(load({ REDIS_URL: url, QUEUE_PREFIX: 'acme-1' }).QUEUE_PREFIX).toBe('{acme-1}');
    // A value read back from another process's config is the same prefix.
    expect(load({ REDIS_URL: url, QUEUE_PREFIX: '{acme-1}' }).QUEUE_PREFIX).toBe('{acme-1}');
  });

  it.each(['{acme', 'a}b', '{a}{b}', 'a:b', 'a b'])('refuses %s', (prefix) => {
    expect(() => load({ REDIS_URL: 'redis://h', QUEUE_PREFIX: prefix })).toThrow(
      /QUEUE_PREFIX: must be letters, digits, _ and -, optionally in braces/,
    );
  });
});
