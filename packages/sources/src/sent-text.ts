import type { PreparedSource } from '@xt/contract';

/**
 * A webpage is located by quote only (docs/citations.md): its grounding is the text the model
 * was given, so a quote taken from the answer can be found in it as sent.
 */
export function withSentText<T extends PreparedSource>(prepared: T): T {
  const text = prepared.parts
    .flatMap((part) => (part.kind === 'text' ? [part.text] : []))
    .join('\n');
  return { ...prepared, grounding: { kind: 'plain', text } };
}
