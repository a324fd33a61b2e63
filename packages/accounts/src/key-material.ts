import { createHash, randomInt } from 'node:crypto';

/**
 * Keys look like `sk_live_` + 32 base62 characters (≈190 bits). The prefix makes a leaked key
 * recognisable to secret scanners; the entropy makes a plain SHA-256 a safe thing to store.
 */
export const KEY_PREFIX = 'sk_live_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
const KEY_PATTERN = /^sk_live_[0-9A-Za-z]{32}$/;

export function generateKey(): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return KEY_PREFIX + body;
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** What `keys list` shows: enough to tell keys apart, far too little to use one. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

export function looksLikeKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}
