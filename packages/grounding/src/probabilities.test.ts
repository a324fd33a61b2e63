import { describe, expect, it } from 'vitest';
import { leafProbabilities, type TokenLogprob } from './index.ts';

// o200k_base's own split of this answer: values cut into several tokens, punctuation merged
// with quotes (`":"`, `","`, `},{"`), a number's sign and digits apart.
const content =
  '{"invoice_number":"INV-2024-001","total":1234.5,"paid":true,"lines":[{"description":"Widget, large","amount":-42.1},{"description":"Café crème","amount":null}],"note":""}';
const split = [
  '{"',
  'invoice',
  '_number',
  '":"',
  'INV',
  '-',
  '202',
  '4',
  '-',
  '001',
  '","',
  'total',
  '":',
  '123',
  '4',
  '.',
  '5',
  ',"',
  'paid',
  '":',
  'true',
  ',"',
  'lines',
  '":[',
  '{"',
  'description',
  '":"',
  'Widget',
  ',',
  ' large',
  '","',
  'amount',
  '":',
  '-',
  '42',
  '.',
  '1',
  '},{"',
  'description',
  '":"',
  'C',
  'afé',
  ' crème',
  '","',
  'amount',
  '":',
  'null',
  '}',
  '],"',
  'note',
  '":',
  '""',
  '}',
];

/** Each token gets a probability of its own, so every leaf's product is checkable. */
function tokensWith(probabilityOf: (token: string, i: number) => number): TokenLogprob[] {
  return split.map((token, i) => ({ token, logprob: Math.log(probabilityOf(token, i)) }));
}

describe('leafProbabilities', () => {
  it('multiplies the probabilities of the tokens that spell each value', () => {
    const p: Record<string, number> = {
      '202': 0.9,
      '4': 0.8,
      '5': 0.5,
      '42': 0.7,
      true: 0.6,
      ' crème': 0.3,
    };
    const result = leafProbabilities(
      content,
      tokensWith((t) => p[t] ?? 1),
    );
    expect([...result.keys()]).toEqual([
      '/invoice_number',
      '/total',
      '/paid',
      '/lines/0/description',
      '/lines/0/amount',
      '/lines/1/description',
      '/note',
    ]);
    expect(result.get('/invoice_number')).toBeCloseTo(0.9 * 0.8);
    // `4` appears in the total too, and `,"` after it (which ends the number) is certain.
    expect(result.get('/total')).toBeCloseTo(0.8 * 0.5);
    expect(result.get('/paid')).toBeCloseTo(0.6);
    expect(result.get('/lines/0/description')).toBeCloseTo(1);
    expect(result.get('/lines/0/amount')).toBeCloseTo(0.7);
    expect(result.get('/lines/1/description')).toBeCloseTo(0.3);
  });

  it('counts the token that ends a value for that value, not for the next one', () => {
    const result = leafProbabilities(
      content,
      tokensWith((t, i) => (t === '},{"' && i === 37 ? 0.25 : 1)),
    );
    expect(result.get('/lines/0/amount')).toBeCloseTo(0.25);
    expect(result.get('/lines/1/description')).toBeCloseTo(1);
    // The empty string is spelled by its quotes alone.
    const empty = leafProbabilities(
      content,
      tokensWith((t) => (t === '""' ? 0.4 : 1)),
    );
    expect(empty.get('/note')).toBeCloseTo(0.4);
  });

  it('places tokens that arrive as byte fragments of one character', () => {
    const tokens = tokensWith((t) => (t === ' crème' ? 0.5 : 1)).flatMap((t) =>
      t.token === 'afé'
        ? [
            { token: 'af', logprob: 0 },
            { token: 'bytes:\\xc3', logprob: Math.log(0.8) },
            { token: 'bytes:\\xa9', logprob: 0 },
          ]
        : [t],
    );
    const result = leafProbabilities(content, tokens);
    expect(result.get('/lines/1/description')).toBeCloseTo(0.8 * 0.5);
    expect(result.get('/note')).toBeCloseTo(1);
  });

  it('keeps the complete leaves of a cut-off answer and nothing without tokens', () => {
    const cut = content.slice(0, content.indexOf('"paid"') + 12);
    const result = leafProbabilities(cut, tokensWith(() => 0.9).slice(0, 19));
    expect([...result.keys()]).toEqual(['/invoice_number', '/total']);
    expect(leafProbabilities(content, []).size).toBe(0);
    const badKey = '{"a":"x","b\\q":"y"}';
    const tokens = [...badKey].map((token) => ({ token, logprob: 0 }));
    expect([...leafProbabilities(badKey, tokens).keys()]).toEqual(['/a']);
  });

  it('escapes keys as JSON Pointer tokens', () => {
    const json = '{"a/b":{"m~n":"x"}}';
    const result = leafProbabilities(json, [
      { token: '{"a/b":{"m~n":"', logprob: 0 },
      { token: 'x', logprob: Math.log(0.5) },
      { token: '"}}', logprob: 0 },
    ]);
    expect(result.get('/a~1b/m~0n')).toBeCloseTo(0.5);
  });
});
