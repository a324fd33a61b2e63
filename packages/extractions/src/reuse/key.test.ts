import { describe, expect, it } from 'vitest';
import { reuseKey, textSha256, type ReuseKeyParts } from './key.ts';

const base: ReuseKeyParts = {
  accountId: '0b6f2c1e-8f7a-4a57-9a3e-2f4b8c1d0e9a',
  type: 'text',
  source: { kind: 'bytes', sha256: textSha256('Total 12.50'), contentType: null },
  instruction: undefined,
  model: 'gpt-4.1',
  citations: false,
  pipelineVersion: '0123456789abcdef',
  namespace: '',
};

describe('reuseKey', () => {
  it('is the same for the same parts and a 32-byte hash', () => {
    expect(reuseKey(base)).toHaveLength(32);
    expect(reuseKey({ ...base })).toEqual(reuseKey(base));
  });

  it('differs when anything that decides the answer differs', () => {
    const key = reuseKey(base).toString('hex');
    const variants: Partial<ReuseKeyParts>[] = [
      { accountId: '1b6f2c1e-8f7a-4a57-9a3e-2f4b8c1d0e9a' },
      { type: 'pdf' },
      { source: { kind: 'bytes', sha256: textSha256('Total 12.51'), contentType: null } },
      { source: { kind: 'bytes', sha256: textSha256('Total 12.50'), contentType: 'text/html' } },
      { source: { kind: 'prepared', sha256: textSha256('Total 12.50') } },
      { instruction: 'Only the total.' },
      { model: 'gpt-4.1-mini' },
      { citations: true },
      { pipelineVersion: 'fedcba9876543210' },
      { namespace: 'after-model-map-change' },
    ];
    const keys = variants.map((v) => reuseKey({ ...base, ...v }).toString('hex'));
    expect(new Set([key, ...keys]).size).toBe(variants.length + 1);
  });

  it('reads the instruction as the prompt does: trimmed, blank as none', () => {
    const withInstruction = reuseKey({ ...base, instruction: 'Only the total.' });
    expect(reuseKey({ ...base, instruction: '  Only the total.\n' })).toEqual(withInstruction);
    expect(reuseKey({ ...base, instruction: '   ' })).toEqual(reuseKey(base));
    expect(reuseKey({ ...base, instruction: null })).toEqual(reuseKey(base));
  });
});
