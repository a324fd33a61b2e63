import type { PreparedSource } from '@xt/contract';

/**
 * Plain text goes to the model as it is, split at blank lines into sections so that a text
 * longer than one call's budget can be chunked at paragraph boundaries.
 */
export function prepareText(text: string): PreparedSource {
  const sections = text.split(/\n\s*\n(?=\s*\S)/);
  if (sections.length <= 1) return { parts: [{ kind: 'text', text, unit: 1 }] };
  // Group paragraphs into sections of ~8k characters: enough for chunking, few parts otherwise.
  const parts: PreparedSource['parts'] = [];
  let current = '';
  for (const section of sections) {
    if (current && current.length + section.length > 8_000) {
      parts.push({ kind: 'text', text: current, unit: parts.length + 1 });
      current = '';
    }
    current = current ? `${current}\n\n${section}` : section;
  }
  if (current) parts.push({ kind: 'text', text: current, unit: parts.length + 1 });
  return { parts };
}
