/**
 * CONVERT_REQUIRE_ISOLATION: where LibreOffice could not have a network namespace of its own,
 * nothing is converted rather than converted on the worker's network. `network: 'shared'`
 * stands for a host whose kernel or seccomp profile refuses unshare.
 */
import { failureOf } from '@xt/testkit';
import { describe, expect, it } from 'vitest';
import { createDocumentConverter } from './converter.ts';
import { createSandbox } from './sandbox.ts';

const bounds = { memoryMb: 512, maxFileBytes: 1024 * 1024 };

describe('a converter that may not share the worker’s network', () => {
  it('is refused where no namespace can be made, saying what to change', async () => {
    await expect(
      createSandbox({ ...bounds, network: 'shared', requireIsolation: true }),
    ).rejects.toThrow(
      /^LibreOffice would share the worker's network \(network isolation turned off for this converter\), and CONVERT_REQUIRE_ISOLATION refuses that/,
    );
  });

  it('shares it, and says so, when isolation is not required', async () => {
    const sandbox = await createSandbox({ ...bounds, network: 'shared' });
    expect(sandbox.isolation.network).toBe(
      'shared: network isolation turned off for this converter',
    );
  });

  it('fails each document as unsupported on this worker, converting nothing', async () => {
    const converter = createDocumentConverter({
      // Any executable: nothing may be started.
      executable: process.execPath,
      memoryMb: 512,
      timeoutMs: 5000,
      concurrency: 1,
      environment: {},
      network: 'shared',
      requireIsolation: true,
    });
    const failure = await failureOf(converter.convertToPdf(Buffer.from('PK'), 'docx'));
    expect(failure.code).toBe('SOURCE_UNSUPPORTED');
    expect(failure.message).toMatch(
      /^Documents cannot be converted on this worker: LibreOffice would share .*CONVERT_REQUIRE_ISOLATION/,
    );
    await expect(converter.isolation()).rejects.toThrow(/CONVERT_REQUIRE_ISOLATION/);
  });
});
