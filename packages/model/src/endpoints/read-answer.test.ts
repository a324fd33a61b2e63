import { describe, expect, it } from 'vitest';
import { readJsonAnswer } from './read-answer.ts';

const value = (text: string): unknown => {
  const read = readJsonAnswer(text);
  if (!read.ok) throw new Error(`not read: ${read.error}`);
  return read.value;
};

describe('readJsonAnswer', () => {
  it('reads the whole text as JSON, with whitespace around it', () => {
    expect(value(' {"a": 1}\n')).toEqual({ a: 1 });
    expect(value('[1, 2]')).toEqual([1, 2]);
    expect(value('null')).toBeNull();
  });

  it('reads a fence around the whole answer, a string in it holding a fence', () => {
    expect(value('```json\n{"a": "```"}\n```')).toEqual({ a: '```' });
    expect(value('```\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(value('```JSON\n{"a": 1}\n```\n')).toEqual({ a: 1 });
  });

  it('reads a fenced block after a sentence and before a closing remark', () => {
    const text =
      'Here is the data:\n\n```json\n{"number": "INV-9"}\n```\n\nLet me know if you need more.';
    expect(value(text)).toEqual({ number: 'INV-9' });
  });

  it('skips a fence in another language and one that does not parse', () => {
    const text = [
      'First a sketch:',
      '```python\nprint({"x": 1})\n```',
      '```json\n{"draft": \n```',
      'And the answer:',
      '```\n{"final": true}\n```',
    ].join('\n');
    expect(value(text)).toEqual({ final: true });
  });

  it('reads the first balanced object inside prose, braces in strings not counted', () => {
    expect(value('The answer is {"a": "x } y", "b": [1, {"c": 2}]}. Done.')).toEqual({
      a: 'x } y',
      b: [1, { c: 2 }],
    });
    expect(value('Escaped: {"q": "say \\"}\\" now"} end')).toEqual({ q: 'say "}" now' });
  });

  it('takes an object over a bracketed mark before it, and a bare list when alone', () => {
    expect(value('As in [1], the data: {"a": 1}')).toEqual({ a: 1 });
    expect(value('The items: [{"a": 1}, {"a": 2}] as asked.')).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('skips a balanced span that is not JSON and a mismatched one', () => {
    expect(value('Use {curly} or [x} then {"ok": 1}')).toEqual({ ok: 1 });
  });

  it('fails with the whole text’s error when there is no JSON to find', () => {
    for (const text of ['Sure! Here is the data: {', 'no json here', '{"a": 1', '']) {
      const read = readJsonAnswer(text);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.error).toBe(jsonError(text));
    }
  });

  it('takes linear time on hostile input', () => {
    const hostile = [
      '{'.repeat(200_000),
      '['.repeat(100_000) + ']'.repeat(99_999),
      '```\n'.repeat(100_000),
      '{"a":'.repeat(50_000),
      '[1] '.repeat(100_000),
      '"'.repeat(200_000) + '{',
    ];
    for (const text of hostile) {
      const started = performance.now();
      readJsonAnswer(text);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
