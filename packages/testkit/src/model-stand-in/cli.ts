import { parseArgs } from 'node:util';
import { startModelStandIn } from './server.ts';

// Run by hand: npx tsx packages/testkit/src/model-stand-in/cli.ts --port 4010 [--oracle]
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'api-key': { type: 'string' },
    'delay-ms': { type: 'string' },
    // Answer only from what reached it (see oracle/index.ts): for measuring pipeline recall.
    oracle: { type: 'boolean', default: false },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be an integer from 0 to 65535, got ${values.port}`);
  process.exit(2);
}
const delayMs = values['delay-ms'] === undefined ? undefined : Number(values['delay-ms']);

const standIn = await startModelStandIn({
  port,
  host: values.host,
  apiKey: values['api-key'],
  defaultBehaviour: {
    ...(delayMs === undefined ? {} : { delayMs }),
    ...(values.oracle ? { oracle: true } : {}),
  },
});
console.log(`Model stand-in listening. Use:\n  OPENAI_BASE_URL=${standIn.url}`);
if (values['api-key'] === undefined) console.log('  (any OPENAI_API_KEY is accepted)');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void standIn.close().then(() => process.exit(0));
  });
}
