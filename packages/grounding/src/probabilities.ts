import { leafSpans } from './json-spans.ts';

export interface TokenLogprob {
  token: string;
  logprob: number;
}

/** How far past an unreadable token (a UTF-8 fragment) the next readable one is looked for. */
const RESYNC_WINDOW = 8;
const MAX_UNREADABLE_RUN = 16;

/**
 * Where each token stands in `content`. Tokens normally spell the content exactly; a character
 * split across tokens comes back as byte fragments that spell nothing, and such a run is given
 * the characters up to where the next readable token is found. Unplaced tokens get `null`.
 */
function tokenSpans(content: string, tokens: TokenLogprob[]): ([number, number] | null)[] {
  const spans: ([number, number] | null)[] = tokens.map(() => null);
  let pos = 0;
  let unreadableFrom = -1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!.token;
    if (unreadableFrom < 0) {
      if (content.startsWith(token, pos)) {
        spans[i] = [pos, pos + token.length];
        pos += token.length;
      } else unreadableFrom = i;
      continue;
    }
    const at =
      token.length === 0
        ? -1
        : content.slice(pos, pos + RESYNC_WINDOW + token.length).indexOf(token);
    if (at >= 0) {
      for (let k = unreadableFrom; k < i; k++) spans[k] = [pos, pos + at];
      pos += at;
      spans[i] = [pos, pos + token.length];
      pos += token.length;
      unreadableFrom = -1;
    } else if (i - unreadableFrom > MAX_UNREADABLE_RUN) break;
  }
  return spans;
}

/**
 * Probability (0..1) of each leaf of a JSON answer, from the tokens that spelled its value.
 * Keys: JSON Pointers (RFC 6901) into JSON.parse(content).
 *
 * A leaf's probability is the product of the probabilities of every token that overlaps its
 * value or the character that ends it (so `","` and `},{"` count for the value they close, not
 * the one they open). The product, not the
 * geometric mean: by the chain rule it is the model's probability of having written exactly this
 * value, which is what "how likely the value is right" asks; a mean of per-token figures has no
 * such meaning and rates a long value with one doubtful digit as nearly certain.
 */
export function leafProbabilities(content: string, tokens: TokenLogprob[]): Map<string, number> {
  const result = new Map<string, number>();
  if (tokens.length === 0) return result;
  const spans = tokenSpans(content, tokens);
  let first = 0;
  for (const leaf of leafSpans(content)) {
    while (first < spans.length && (spans[first] === null || spans[first]![1] <= leaf.start)) {
      if (spans[first] === null) break;
      first++;
    }
    let logprob = 0;
    let covered = 0;
    let placed = true;
    for (let k = first; k < spans.length; k++) {
      const span = spans[k];
      if (!span) {
        placed = false;
        break;
      }
      if (span[0] >= leaf.end) break;
      if (span[1] > leaf.start) {
        logprob += tokens[k]!.logprob;
        covered++;
      }
    }
    if (placed && covered > 0)
      result.set(leaf.pointer, Math.min(1, Math.max(0, Math.exp(logprob))));
  }
  return result;
}
