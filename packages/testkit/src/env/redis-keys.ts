import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * A key prefix of its own for each test, so tests sharing one Redis never meet. Letters,
 * digits and dashes only: safe as a BullMQ prefix and free of glob characters.
 */
export function redisKeyPrefix(label = 'xt-test'): string {
  return `${label}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

function globLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/**
 * Deletes every key that starts with `prefix` (SCAN, then UNLINK in batches, so a large
 * keyspace never blocks the server). Returns how many keys were removed.
 */
export async function flushPrefix(redisUrl: string, prefix: string): Promise<number> {
  if (prefix === '') throw new Error('flushPrefix needs a non-empty prefix');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let removed = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(
        cursor,
        'MATCH',
        `${globLiteral(prefix)}*`,
        'COUNT',
        1000,
      );
      cursor = next;
      if (keys.length > 0) removed += await redis.unlink(...keys);
    } while (cursor !== '0');
    return removed;
  } finally {
    redis.disconnect();
  }
}
