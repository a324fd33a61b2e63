import { parseArgs } from 'node:util';
import { startModelStandIn } from './server.ts';
import type { Dialect } from './types.ts';

// Run by hand: npx tsx packages/testkit/src/model-stand-in/cli.ts --port 4010 [--oracle]
//   [--dialect '{"server":"ollama","contextTokens":4096,"images":false}'] [--models llama3.1:8b]
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'api-key': { type: 'string' },
    'delay-ms': { type: 'string' },
    // Answer only from what reached it (see oracle/index.ts): for measuring pipeline recall.
    oracle: { type: 'boolean', default: false },
    // A server that speaks less than OpenAI's dialect (types.ts `Dialect`), as JSON.
    dialect: { type: 'string' },
    // The model names it serves, comma-separated (vLLM and Ollama refuse others).
    models: { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be an integer from 0 to 65535, got ${values.port}`);
  process.exit(2);
}
const delayMs = values['delay-ms'] === undefined ? undefined : Number(values['delay-ms']);
let dialect: Dialect = {};
try {
  dialect = JSON.parse(values.dialect ?? '{}') as Dialect;
} catch {
  console.error(`--dialect must be a JSON object, got ${values.dialect}`);
  process.exit(2);
}

const standIn = await startModelStandIn({
  port,
  host: values.host,
  apiKey: values['api-key'],
  dialect,
  ...(values.models ? { models: values.models.split(',').map((m) => m.trim()) } : {}),
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
