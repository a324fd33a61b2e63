/**
 * Serves the worker's fixture site for the `webpages` data set:
 * `npx tsx scripts/datasets/test-site.ts [--port <n>]`. It prints the origin to give
 * `xt eval --site`, and the host:port the worker must allow (`SOURCE_ALLOWLIST`), since the
 * site is on a private address the service otherwise refuses to fetch.
 */
import { parseArgs } from 'node:util';
import { startTestSite } from '@xt/testkit/fixtures';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
const site = await startTestSite({ port: Number(values.port) });
console.log(`Test site: ${site.origin}`);
console.log(`  xt eval --site ${site.origin}   (worker: SOURCE_ALLOWLIST=${site.hostPort})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void site.close().then(() => process.exit(0));
  });
}
