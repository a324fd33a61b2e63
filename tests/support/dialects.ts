/**
 * Model servers that speak less than OpenAI's dialect, each a stand-in in one of the modes the
 * popular servers behave in (docs/models.md), and the MODEL_ENDPOINTS that serve each as a model
 * of its own: one worker then meets them all, and each is probed on its own.
 */
import { startModelStandIn, type ModelStandIn } from '@xt/testkit';
import type { Dialect } from '@xt/testkit/model-stand-in';

export interface DialectServers {
  servers: Record<string, ModelStandIn>;
  /** MODEL_ENDPOINTS for the API and the worker */
  endpoints: string;
  close(): Promise<void>;
}

export async function startDialects(dialects: Record<string, Dialect>): Promise<DialectServers> {
  const servers: Record<string, ModelStandIn> = {};
  for (const [name, dialect] of Object.entries(dialects))
    servers[name] = await startModelStandIn({
      dialect,
      // Answers from what reached it, as a model reads its prompt: a value cut from the prompt
      // is a value it cannot give.
      defaultBehaviour: { oracle: true },
      models: [name],
    });
  const endpoints = JSON.stringify(
    Object.entries(servers).map(([name, server]) => ({
      name,
      kind: 'openai-compatible',
      baseUrl: server.url,
      models: [{ id: name }],
    })),
  );
  return {
    servers,
    endpoints,
    close: async () => {
      await Promise.all(Object.values(servers).map((s) => s.close()));
    },
  };
}

/** Prose with no labelled values in it, to put a long way between the facts of a document. */
export function filler(chars: number, seed = 0): string {
  const words = [
    'shipment',
    'schedule',
    'warehouse',
    'quarterly',
    'review',
    'supplier',
    'freight',
    'customs',
    'routing',
    'pallet',
  ];
  const out: string[] = [];
  let length = 0;
  for (let i = seed; length < chars; i += 1) {
    const sentence = `The ${words[i % 10]} and the ${words[(i * 7 + 3) % 10]} were discussed in section ${i}.`;
    out.push(sentence);
    length += sentence.length + 1;
    if (i % 8 === 7) out.push('\n');
  }
  return out.join(' ');
}
