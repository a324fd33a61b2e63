import { describe, expect, it } from 'vitest';
import { UsageError } from './command.ts';
import { parseClasses } from './split.ts';

describe('xt split --class and --describe', () => {
  it('splits each at its first "=": a name, then a schema id or file, or a description', () => {
    expect(
      parseClasses(
        ['invoice=1b2c', 'delivery note=schemas/note.json', 'contract'],
        ['invoice=A bill asking for payment', 'contract=Terms = signed by both'],
      ),
    ).toEqual([
      { name: 'invoice', schema: '1b2c', description: 'A bill asking for payment' },
      { name: 'delivery note', schema: 'schemas/note.json' },
      { name: 'contract', description: 'Terms = signed by both' },
    ]);
  });

  it.each([
    [[], [], 'name at least one --class'],
    [['=abc'], [], 'the class needs a name'],
    [['invoice='], [], 'name a schema after "="'],
    [['invoice'], ['receipt=A till slip'], 'there is no --class receipt'],
    [['invoice'], ['invoice'], 'write it as NAME=TEXT'],
  ])('refuses %j %j', (classes, describes, message) => {
    expect(() => parseClasses(classes, describes)).toThrow(UsageError);
    expect(() => parseClasses(classes, describes)).toThrow(message);
  });
});
