import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '@xt/model';
import { parseEnv } from '@xt/runtime';
import { configSchema, loadConfig } from './config.ts';

const base = { DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r:6379' };

describe('MODEL_PRICES', () => {
  it('defaults to the built-in prices and overrides one model whole', () => {
    expect(parseEnv(configSchema, base).MODEL_PRICES).toEqual(DEFAULT_PRICES);
    const prices = parseEnv(configSchema, {
      ...base,
      MODEL_PRICES: '{"gpt-4.1-mini":{"input":1,"cachedInput":0.25,"output":4}}',
    }).MODEL_PRICES;
    expect(prices['gpt-4.1-mini']?.standard).toEqual({ input: 1, cachedInput: 0.25, output: 4 });
    expect(prices['gpt-4.1']).toEqual(DEFAULT_PRICES['gpt-4.1']);
  });

  it('names the field that is wrong', () => {
    const error = (value: string) => {
      try {
        loadConfig({ ...base, MODEL_PRICES: value });
      } catch (err) {
        return String(err);
      }
      return 'no error';
    };
    expect(error('{"gpt-4.1":{"input":"2","output":8}}')).toMatch(/MODEL_PRICES\.gpt-4\.1\.input:/);
    expect(error('{"gpt-4.1":{"input":2,"output":8,"batch":{"input":-1,"output":4}}}')).toMatch(
      /MODEL_PRICES\.gpt-4\.1\.batch\.input:/,
    );
    expect(error('{"gpt-5":{"input":2,"output":8}}')).toMatch(
      /MODEL_PRICES: gpt-5: not a public model/,
    );
    expect(error('prices')).toMatch(/MODEL_PRICES: must be a JSON object/);
  });
});

describe('CONVERT_REQUIRE_ISOLATION', () => {
  const required = (env: Record<string, string>) =>
    loadConfig({ ...base, ...env }).CONVERT_REQUIRE_ISOLATION;

  it('is on by default in production, as in the image, and off elsewhere', () => {
    expect(required({ NODE_ENV: 'production' })).toBe(true);
    expect(required({})).toBe(false);
    expect(required({ NODE_ENV: 'development' })).toBe(false);
  });

  it('is what the operator says when said', () => {
    expect(required({ NODE_ENV: 'production', CONVERT_REQUIRE_ISOLATION: 'false' })).toBe(false);
    expect(required({ CONVERT_REQUIRE_ISOLATION: 'true' })).toBe(true);
    expect(() => required({ CONVERT_REQUIRE_ISOLATION: 'yes' })).toThrow(
      /CONVERT_REQUIRE_ISOLATION/,
    );
  });
});

describe('OCR_LANGUAGES', () => {
  it('is English by default and takes a + list of Tesseract languages, nothing else', () => {
    expect(parseEnv(configSchema, base).OCR_LANGUAGES).toBe('eng');
    expect(
      parseEnv(configSchema, { ...base, OCR_LANGUAGES: 'eng+jpn+chi_sim' }).OCR_LANGUAGES,
    ).toBe('eng+jpn+chi_sim');
    for (const bad of ['eng jpn', 'jpn+', '--psm 0'])
      expect(() => parseEnv(configSchema, { ...base, OCR_LANGUAGES: bad }), bad).toThrow(
        /OCR_LANGUAGES/,
      );
  });
});

describe('PREP_MEMORY_MB', () => {
  it('bounds a prep process at 3 GiB, takes 0 for none, and refuses what Node cannot start in', () => {
    expect(parseEnv(configSchema, base).PREP_MEMORY_MB).toBe(3072);
    expect(parseEnv(configSchema, { ...base, PREP_MEMORY_MB: '0' }).PREP_MEMORY_MB).toBe(0);
    expect(parseEnv(configSchema, { ...base, PREP_MEMORY_MB: '1024' }).PREP_MEMORY_MB).toBe(1024);
    // Node counts about 600 MiB against the bound before it loads anything.
    expect(() => parseEnv(configSchema, { ...base, PREP_MEMORY_MB: '512' })).toThrow(
      /PREP_MEMORY_MB/,
    );
  });
});

describe('MODEL_LEARNED_SLOTS_*', () => {
  it('starts a learned limit at one, within 1 to 16, and refuses a start outside its bounds', () => {
    const config = loadConfig(base);
    expect([
      config.MODEL_LEARNED_SLOTS_START,
      config.MODEL_LEARNED_SLOTS_MIN,
      config.MODEL_LEARNED_SLOTS_MAX,
    ]).toEqual([1, 1, 16]);
    expect(loadConfig({ ...base, MODEL_LEARNED_SLOTS_START: '4' }).MODEL_LEARNED_SLOTS_START).toBe(
      4,
    );
    expect(() => loadConfig({ ...base, MODEL_LEARNED_SLOTS_START: '20' })).toThrow(
      /MODEL_LEARNED_SLOTS_START: MODEL_LEARNED_SLOTS_MIN <= MODEL_LEARNED_SLOTS_START <= MODEL_LEARNED_SLOTS_MAX/,
    );
    expect(() => loadConfig({ ...base, MODEL_LEARNED_SLOTS_MIN: '0' })).toThrow(
      /MODEL_LEARNED_SLOTS_MIN/,
    );
  });
});
