import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as ChatRequest from './chat-request.ts';
import type * as Prompt from './prompt.ts';

afterEach(() => {
  vi.doUnmock('./prompt.ts');
  vi.doUnmock('./chat-request.ts');
  vi.resetModules();
});

async function freshVersion(): Promise<string> {
  vi.resetModules();
  const { pipelineVersion } = await import('./pipeline-version.ts');
  return pipelineVersion();
}

describe('pipelineVersion', () => {
  it('is a short hex hash, the same on every call', async () => {
    const { pipelineVersion } = await import('./pipeline-version.ts');
    expect(pipelineVersion()).toMatch(/^[0-9a-f]{16}$/);
    expect(await freshVersion()).toBe(pipelineVersion());
  });

  it('changes when the prompt builder writes anything else', async () => {
    const before = await freshVersion();
    vi.doMock('./prompt.ts', async (original) => {
      const real = await original<typeof Prompt>();
      return {
        ...real,
        buildMessages: (input: Parameters<typeof real.buildMessages>[0]) => {
          const messages = real.buildMessages(input);
          return [{ role: 'system' as const, content: 'One more rule.' }, ...messages];
        },
      };
    });
    expect(await freshVersion()).not.toBe(before);
  });

  it('changes when the request parameters change', async () => {
    const before = await freshVersion();
    vi.doMock('./chat-request.ts', async (original) => {
      const real = await original<typeof ChatRequest>();
      return {
        ...real,
        chatRequest: (...args: Parameters<typeof real.chatRequest>) => ({
          ...real.chatRequest(...args),
          seed: 1,
        }),
      };
    });
    expect(await freshVersion()).not.toBe(before);
  });
});
