import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { startModelStandIn } from '../server.ts';
import { oracleAnswer } from './index.ts';

const nullable = (type: string) => ({ type: [type, 'null'] });
const schema = {
  type: 'object',
  properties: {
    title: nullable('string'),
    invoice_number: nullable('string'),
    total: nullable('number'),
    paid: nullable('boolean'),
    fiscal_year: nullable('string'),
    vendor: { type: 'object', properties: { name: nullable('string') } },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          item: { type: 'string' },
          qty: nullable('integer'),
          price: { type: 'number' },
        },
      },
    },
  },
};

function body(source: string, extra: unknown[] = [], instruction?: string) {
  const user = [
    { type: 'text', text: `header\n<source>\n${source}` },
    ...extra,
    { type: 'text', text: '</source>' },
  ];
  return {
    messages: [
      { role: 'system', content: 'Total: 999 is in the rules, not the source' },
      ...(instruction ? [{ role: 'user', content: instruction }] : []),
      { role: 'user', content: user },
    ],
  };
}

async function textImage(lines: string[]): Promise<unknown> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${60 + lines.length * 50}"><rect width="100%" height="100%" fill="white"/>${lines
    .map(
      (l, i) =>
        `<text x="30" y="${60 + i * 50}" font-family="DejaVu Sans" font-size="30">${l}</text>`,
    )
    .join('')}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return {
    type: 'image_url',
    image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
  };
}

describe('oracle', () => {
  it('copies labelled values, nested and definition-list ones too, only from the source', async () => {
    const answer = await oracleAnswer(
      body(
        '# Doc title\nURL: http://x\n\n# Invoice 7\n- **Invoice number:** INV-7\nVendor name: Acme Ltd\nPaid: yes\n**Fiscal year**\n: Ends in March\nTotal: EUR 1,234.50',
        [],
        'Invoice number: NOT-THIS',
      ),
      schema,
    );
    expect(answer).toEqual({
      title: 'Invoice 7',
      invoice_number: 'INV-7',
      total: 1234.5,
      paid: true,
      fiscal_year: 'Ends in March',
      vendor: { name: 'Acme Ltd' },
      lines: [],
    });
  });

  it('answers null for what did not reach it', async () => {
    const answer = (await oracleAnswer(body('Nothing labelled here.'), schema)) as Record<
      string,
      unknown
    >;
    expect(answer.invoice_number).toBeNull();
    expect(answer.total).toBeNull();
    expect(answer.lines).toEqual([]);
  });

  it('reads table rows from pipes, tabs, wide gaps and single spaces, skipping headers and labels', async () => {
    const answer = (await oracleAnswer(
      body(
        [
          '| Item | Qty | Price |',
          '| --- | --- | --- |',
          '| Blue widget | 4 | 12.50 |',
          '| Red \\| large | | 99.00 |',
          'Green cup\t2\t3.10',
          'Yellow pen     1     0.99',
          'Black ink 3 7.00',
          'Total due: 3 7.00',
        ].join('\n'),
      ),
      schema,
    )) as { lines: unknown[] };
    expect(answer.lines).toEqual([
      { item: 'Blue widget', qty: 4, price: 12.5 },
      { item: 'Red | large', qty: null, price: 99 },
      { item: 'Green cup', qty: 2, price: 3.1 },
      { item: 'Yellow pen', qty: 1, price: 0.99 },
      { item: 'Black ink', qty: 3, price: 7 },
    ]);
  });

  it("reads a sheet's rows past their row numbers", async () => {
    const answer = (await oracleAnswer(
      body(
        [
          'Sheet 1 of 1: "Prices"',
          '| Row | A | B | C |',
          '|---|---|---|---|',
          '| 1 | Item | Qty | Price |',
          '| 2 | Blue widget | 4 | 12.50 |',
          '| 3 (hidden row) | Red cup | 1 | 3.10 |',
        ].join('\n'),
      ),
      schema,
    )) as { lines: unknown[] };
    expect(answer.lines).toEqual([
      { item: 'Blue widget', qty: 4, price: 12.5 },
      { item: 'Red cup', qty: 1, price: 3.1 },
    ]);
  });

  it('reads images with tesseract, without listing rows the text already gave twice', async () => {
    const image = await textImage([
      'Invoice number: INV-42',
      'Blue widget 4 12.50',
      'Red lamp 2 30.00',
    ]);
    const answer = (await oracleAnswer(body('| Blue widget | 4 | 12.50 |', [image]), schema)) as {
      invoice_number: unknown;
      lines: unknown[];
    };
    expect(answer.invoice_number).toBe('INV-42');
    expect(answer.lines).toEqual([
      { item: 'Blue widget', qty: 4, price: 12.5 },
      { item: 'Red lamp', qty: 2, price: 30 },
    ]);
  });

  it('stops at the output cap with finish_reason length, as the model would', async () => {
    const standIn = await startModelStandIn({ defaultBehaviour: { oracle: true } });
    try {
      const rows = Array.from({ length: 50 }, (_, i) => `| Item ${i} | ${i} | ${i}.50 |`).join(
        '\n',
      );
      const request = (max: number) =>
        fetch(`${standIn.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'gpt-4.1',
            max_completion_tokens: max,
            response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
            ...body(rows),
          }),
        }).then(
          (r) =>
            r.json() as Promise<{
              choices: Array<{ finish_reason: string; message: { content: string } }>;
            }>,
        );
      const whole = (await request(10_000)).choices[0]!;
      expect(whole.finish_reason).toBe('stop');
      expect((JSON.parse(whole.message.content) as { lines: unknown[] }).lines).toHaveLength(50);
      const cut = (await request(100)).choices[0]!;
      expect(cut.finish_reason).toBe('length');
      expect(cut.message.content).toHaveLength(400);
    } finally {
      await standIn.close();
    }
  });
});
