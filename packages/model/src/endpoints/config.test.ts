import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseEnv } from '@xt/runtime';
import { modelEndpointsConfig, registryFromSettings } from './settings.ts';

const schema = z.object(modelEndpointsConfig);
const parse = (value: unknown) => parseEnv(schema, { MODEL_ENDPOINTS: JSON.stringify(value) });
const problem = (value: unknown): string => {
  try {
    parse(value);
  } catch (error) {
    return String(error);
  }
  return 'no error';
};

const local = {
  name: 'local',
  kind: 'openai-compatible',
  baseUrl: 'http://127.0.0.1:11434/v1',
  models: [{ id: 'llama3.1', providerModel: 'llama3.1:8b', default: true }],
};
const azure = {
  name: 'azure',
  kind: 'azure',
  baseUrl: 'https://acme.openai.azure.com',
  apiVersion: '2024-10-21',
  apiKeyEnv: 'AZURE_KEY',
  models: [{ id: 'gpt-4.1', providerModel: 'acme-gpt41' }],
};

describe('MODEL_ENDPOINTS', () => {
  it('serves every configured name from its endpoint, with the one marked default', () => {
    const config = parse([local, azure]);
    const registry = registryFromSettings(config, { AZURE_KEY: 'az-secret' }, true);
    expect(registry.names).toEqual(['llama3.1', 'gpt-4.1']);
    expect(registry.defaultModel).toBe('llama3.1');
    expect(registry.route('gpt-4.1')).toMatchObject({
      providerModel: 'acme-gpt41',
      endpoint: { name: 'azure', kind: 'azure', apiKey: 'az-secret', apiVersion: '2024-10-21' },
    });
    expect(registry.route('gpt-4.1-mini')).toBeUndefined();
  });

  it('reads the same JSON from a file', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'xt-endpoints-')), 'models.json');
    writeFileSync(file, JSON.stringify({ endpoints: [local] }));
    const config = parseEnv(schema, { MODEL_ENDPOINTS: file });
    expect(registryFromSettings(config, {}, true).names).toEqual(['llama3.1']);
  });

  it('without it, the single endpoint serves the default names through MODEL_MAP', () => {
    const registry = registryFromSettings(
      { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', MODEL_MAP: { 'gpt-4.1': 'qwen' } },
      {},
      true,
    );
    expect(registry.names).toEqual(['gpt-4.1', 'gpt-4.1-mini']);
    expect(registry.route('gpt-4.1')).toMatchObject({
      providerModel: 'qwen',
      endpoint: { name: 'default', kind: 'openai-compatible' },
    });
    expect(registryFromSettings({}, {}, true).route('gpt-4.1')?.endpoint.kind).toBe('openai');
  });

  it('names the entry and the field that is wrong', () => {
    expect(problem([{ ...local, baseUrl: undefined }])).toMatch(
      /MODEL_ENDPOINTS: endpoint "local": baseUrl is required for kind openai-compatible/,
    );
    expect(problem([{ ...azure, apiVersion: undefined }])).toMatch(
      /endpoint "azure": apiVersion is required for kind azure/,
    );
    expect(problem([local, { ...local, models: [{ id: 'llama3.1' }] }])).toMatch(
      /endpoint "local": the name is used twice[\s\S]*model "llama3.1" is already served by endpoint "local"/,
    );
    expect(problem([{ ...local, kind: 'ollama' }])).toMatch(/endpoint "local": kind /);
    expect(problem([{ kind: 'openai', models: [] }])).toMatch(/endpoint 1: name /);
    expect(problem([])).toMatch(/MODEL_ENDPOINTS: must be a non-empty array/);
    expect(parseEnv.bind(null, schema, { MODEL_ENDPOINTS: '/nowhere/models.json' })).toThrow(
      /MODEL_ENDPOINTS: is neither JSON nor a readable file \(ENOENT\)/,
    );
  });

  it('stops a process that needs keys when a key variable is missing, naming it but no key', () => {
    const config = parse([azure]);
    expect(() => registryFromSettings(config, {}, true)).toThrow(
      /MODEL_ENDPOINTS: endpoint "azure": apiKeyEnv names AZURE_KEY, which is not set/,
    );
    // The API lists names and never calls a model: it needs no key.
    expect(registryFromSettings(config, {}, false).names).toEqual(['gpt-4.1']);
  });
});
