/**
 * The usage page's layout at desktop and phone width: the seven totals (cost and what reuse
 * saved among them) on one row where there is room, each schema's cost in a table, and the
 * charts' axis labels legible and clear of each other. A month of usage is seeded
 * in the database (token counts in the millions, so the axis labels are as wide as they get).
 */
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestPool } from '@xt/testkit';
import {
  DESKTOP,
  PHONE,
  screenshots,
  startDashboard,
  type DashboardFixture,
} from '../support/dashboard.ts';
import { overlapping, placed, settled } from '../support/layout.ts';

let dash: DashboardFixture;
let db: pg.Pool;

/** Days ago, status, tokens: completed and failed ones, spread over the month shown. */
const USAGE: [number, 'completed' | 'failed', number][] = [
  [27, 'completed', 1_250_000],
  [20, 'failed', 400_000],
  [12, 'completed', 2_600_000],
  [5, 'completed', 900_000],
  [1, 'failed', 150_000],
  [0, 'completed', 3_100_000],
];

beforeAll(async () => {
  dash = await startDashboard();
  db = openTestPool(dash.api.database.url);
  const schema = await dash.api.request('POST', '/v1/schemas', {
    json: {
      name: 'Receipt',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    },
  });
  for (const [ago, status, tokens] of USAGE) {
    const res = await dash.api.request('POST', '/v1/extractions', {
      json: { schema_id: schema.body.data.id, type: 'text', source: 'Total: 1.00' },
      headers: { prefer: 'respond-async' },
    });
    expect(res.status).toBe(202);
    // No worker runs: the record is given the outcome and the day usage would show.
    await db.query(
      `update extractions set status = $2, charged = $2 = 'completed', total_tokens = $3::bigint,
         cost_usd = $3::bigint * 0.000002, saved_usd = case when $2 = 'completed' then 0.5 else 0 end,
         created_at = now() - make_interval(days => $4) where id = $1`,
      [res.body.data.id, status, tokens, ago],
    );
  }
});
afterAll(async () => {
  await db?.end();
  await dash?.close();
});

async function usagePage() {
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/usage');
  await page.getByRole('img', { name: 'Tokens per day' }).waitFor();
  return page;
}

it('shows the seven totals on one row at desktop width, in pairs on a phone', async () => {
  const page = await usagePage();
  expect(await page.getByTestId('uncharged-tokens').textContent()).toBe('550,000');
  // 8,400,000 tokens at $2 per 1M; four completed ones saved $0.50 each
  expect(await page.getByTestId('cost').textContent()).toBe('$16.80');
  expect(await page.getByTestId('saved').textContent()).toBe('$2.00');
  const bySchema = page.getByTestId('usage-by-schema');
  expect(await bySchema.getByRole('row', { name: /Receipt/ }).textContent()).toContain('$16.80');
  const stats = page.locator('.stat');
  const desktop = await placed(stats);
  expect(desktop).toHaveLength(7);
  expect(new Set(desktop.map((s) => s.box.y)).size).toBe(1);

  await page.setViewportSize(PHONE);
  await settled(page);
  const phone = await placed(stats);
  expect(overlapping(phone)).toEqual([]);
  // Two a row, and the odd one out across the whole row rather than a gap beside it.
  const rows = Map.groupBy(phone, (s) => s.box.y);
  expect([...rows.values()].map((r) => r.length)).toEqual([2, 2, 2, 1]);
  // Through a locator: the tests' program has Node's types, not the DOM's `document`.
  expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  const [first, second] = phone;
  const last = phone.at(-1)!;
  expect(last.box.width).toBeCloseTo(second!.box.x + second!.box.width - first!.box.x, 0);
  await page.getByText('The numbers, day by day').click();
  await screenshots(page, 'usage-seeded');
});

it('draws the charts’ axis labels legibly and clear of each other at both widths', async () => {
  const page = await usagePage();
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await settled(page);
    for (const name of ['Extractions per day', 'Tokens per day']) {
      const labels = await placed(page.getByRole('img', { name }).locator('text'));
      // Three on the y axis, a date every few days on the x axis.
      expect(labels.length, `${name} at ${size.width} px`).toBeGreaterThanOrEqual(7);
      expect(overlapping(labels), `${name} at ${size.width} px`).toEqual([]);
      // A label's box is about 1.2 times its font size: 10 px and up is legible.
      for (const l of labels)
        expect(l.box.height, `"${l.text}" in ${name} at ${size.width} px`).toBeGreaterThanOrEqual(
          12,
        );
    }
  }
});
