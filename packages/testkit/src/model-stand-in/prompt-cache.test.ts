import { describe, expect, it } from 'vitest';
import { createPromptCache, MIN_CACHED_TOKENS } from './prompt-cache.ts';

const fixed = 'rules and schema. '.repeat(400); // 7,200 characters: 1,800 tokens
const request = (system: string, source: string) => ({
  model: 'gpt-4.1',
  response_format: { type: 'json_schema' },
  messages: [
    { role: 'system', content: system },
    { role: 'user', content: source },
  ],
});

describe('the stand-in prompt cache', () => {
  it('reports the start a repeated prompt shares, in 128-token steps from 1,024', () => {
    const cache = createPromptCache();
    expect(cache.cachedTokens(request(fixed, 'first source'))).toBe(0);
    const cached = cache.cachedTokens(request(fixed, 'second source'));
    expect(cached).toBeGreaterThanOrEqual(MIN_CACHED_TOKENS);
    expect((cached - MIN_CACHED_TOKENS) % 128).toBe(0);
    // the shared start is the fixed text and a little framing, never the source after it
    expect(cached).toBeLessThanOrEqual(Math.ceil(fixed.length / 4) + 32);
  });

  it('caches nothing for a shared start under 1,024 tokens, or a change at the start', () => {
    const cache = createPromptCache();
    const short = 'rules. '.repeat(100);
    cache.cachedTokens(request(short, 'a'));
    expect(cache.cachedTokens(request(short, 'b'))).toBe(0);
    cache.cachedTokens(request(fixed, 'a'));
    expect(cache.cachedTokens(request(`X${fixed}`, 'a'))).toBe(0);
  });

  it('forgets everything when cleared', () => {
    const cache = createPromptCache();
    cache.cachedTokens(request(fixed, 'a'));
    cache.clear();
    expect(cache.cachedTokens(request(fixed, 'a'))).toBe(0);
  });
});
