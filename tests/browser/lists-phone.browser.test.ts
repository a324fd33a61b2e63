/**
 * The list pages on a phone (390 px) and at desktop width: an extraction's whole row or card is
 * its link, schema cards spend no line on a missing description and count nested fields, the
 * usage page's table by schema fits with its numbers right-aligned, and the run form tells
 * schemas of the same name apart. Seeded over the API and in the database (no worker runs).
 */
import type pg from 'pg';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPool } from '@xt/testkit';
import {
  DESKTOP,
  PHONE,
  screenshots,
  startDashboard,
  viewShot,
  type DashboardFixture,
} from '../support/dashboard.ts';
import { placed, settled, type Box } from '../support/layout.ts';

let dash: DashboardFixture;
let db: pg.Pool;
let extractionId: string;

const INVOICE = {
  type: 'object',
  properties: {
    vendor: { type: 'string' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { item: { type: 'string' }, amount: { type: 'number' } },
      },
    },
    total: { type: 'number' },
  },
};
const FLAT = { type: 'object', properties: { total: { type: 'number' } } };
const LONG_NAME = 'Supplier purchase order confirmation';

beforeAll(async () => {
  dash = await startDashboard();
  db = openTestPool(dash.api.database.url);
  // Three README snippets run one after another: three schemas named "Invoice".
  const ids: string[] = [];
  for (const structure of [INVOICE, FLAT, INVOICE]) {
    const res = await dash.api.request('POST', '/v1/schemas', {
      json: { name: 'Invoice', structure },
    });
    ids.push(res.body.data.id);
  }
  const long = await dash.api.request('POST', '/v1/schemas', {
    json: { name: LONG_NAME, description: 'Orders our suppliers confirm', structure: FLAT },
  });
  for (const schemaId of [ids[0]!, long.body.data.id as string]) {
    const res = await dash.api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total: 1.00' },
      headers: { prefer: 'respond-async' },
    });
    expect(res.status).toBe(202);
    extractionId = res.body.data.id;
    // No worker runs: the record is given an outcome usage counts.
    await db.query(
      `update extractions set status = 'completed', charged = true, total_tokens = 1234567,
         cost_usd = 2.4691, saved_usd = 0.1234, finished_at = now() where id = $1`,
      [extractionId],
    );
  }
});
afterAll(async () => {
  await db?.end();
  await dash?.close();
});

const right = (b: Box) => b.x + b.width;

/** Where each element's text is drawn (not its cell's box): to see how the text is aligned. */
async function textBoxes(locator: Locator): Promise<Box[]> {
  return locator.evaluateAll((elements) =>
    elements.map((e) => {
      // The tests compile without the DOM's types: the little of it used here, by hand.
      const doc = e.ownerDocument as unknown as {
        createRange(): { selectNodeContents(n: unknown): void; getBoundingClientRect(): Box };
      };
      const range = doc.createRange();
      range.selectNodeContents(e);
      const r = range.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
}

async function at(page: Page, size: typeof PHONE, path: string) {
  await page.setViewportSize(size);
  await page.goto(path);
}

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('at %s width', (name, size) => {
  it('an extraction’s whole card or row is its one link', async () => {
    const page = await dash.signedIn('acme');
    await at(page, size, '/dashboard/extractions');
    const row = page.locator('tbody tr', { hasText: LONG_NAME });
    await row.waitFor();
    // One interactive element in it, and a tap anywhere on it (here: far from the id) opens it.
    expect(await row.locator('a, button, input, select').count()).toBe(1);
    const [card] = await placed(row);
    await viewShot(page, `extractions-list.${name}`);
    await page.mouse.click(card!.box.x + card!.box.width - 12, card!.box.y + card!.box.height - 6);
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/dashboard\/extractions\/./);
    await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
  });

  it('schema cards count every field and spend no line on a missing description', async () => {
    const page = await dash.signedIn('acme');
    await at(page, size, '/dashboard/schemas');
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    await viewShot(page, `schemas-list.${name}`);
    const fieldsOf = (i: number) => rows.nth(i).locator('td[data-label="Fields"]').textContent();
    // Newest first: Invoice (nested), Invoice (flat), Invoice (nested) after the long one.
    const texts = await Promise.all([0, 1, 2, 3].map(fieldsOf));
    expect(texts).toEqual(['1 field', '4 fields (2 nested)', '1 field', '4 fields (2 nested)']);
    const descriptions = page.locator('td[data-label="Description"]');
    const drawn = await placed(descriptions);
    if (name === 'phone') {
      // Only the one schema with a description has a line for it.
      expect(drawn.map((d) => d.text)).toEqual(['Orders our suppliers confirm']);
    } else {
      expect(drawn).toHaveLength(4);
    }
    await screenshots(page, 'schemas-list');
  });

  it('usage by schema: nothing cut off, names as text, numbers right-aligned', async () => {
    const page = await dash.signedIn('acme');
    await at(page, size, '/dashboard/usage');
    const bySchema = page.getByTestId('usage-by-schema');
    await bySchema.getByText(LONG_NAME).waitFor();
    await page.locator('.card', { has: bySchema }).scrollIntoViewIfNeeded();
    await settled(page);
    await viewShot(page, `usage-by-schema.${name}`);
    // A name is a value, not a header.
    expect(await bySchema.getByRole('rowheader').count()).toBe(0);
    expect(await bySchema.getByRole('cell', { name: LONG_NAME }).count()).toBe(1);
    // Every saved amount is on the screen, inside its card or table.
    const saved = await placed(bySchema.getByText('$0.1234'));
    expect(saved).toHaveLength(2);
    const [wrap] = await placed(bySchema.locator('.table-wrap'));
    for (const s of saved) {
      expect(right(s.box)).toBeLessThanOrEqual(Math.min(size.width, right(wrap!.box)));
    }
    // Numbers end at one right edge per column (or card).
    for (const amount of ['1,234,567', '$2.4691', '$0.1234']) {
      const ends = (await textBoxes(bySchema.locator('td', { hasText: amount }))).map(right);
      expect(ends).toHaveLength(2);
      expect(Math.abs(ends[0]! - ends[1]!), amount).toBeLessThan(1);
    }
    // And a number sits at the right of its cell, not at its left.
    const [cell] = await placed(bySchema.locator('td', { hasText: '$2.4691' }).first());
    const [text] = await textBoxes(bySchema.locator('td', { hasText: '$2.4691' }).first());
    expect(right(cell!.box) - right(text!)).toBeLessThan(20);
    expect(text!.x - cell!.box.x).toBeGreaterThan(20);
  });

  it('the run form tells schemas of the same name apart', async () => {
    const page = await dash.signedIn('acme');
    await at(page, size, '/dashboard/extractions/new');
    const picker = page.getByLabel('Schema');
    await picker.locator('option', { hasText: LONG_NAME }).waitFor({ state: 'attached' });
    await picker.selectOption({ index: 1 });
    await viewShot(page, `run-picker.${name}`);
    const invoices = (await picker.locator('option').allTextContents()).filter((t) =>
      t.startsWith('Invoice'),
    );
    expect(invoices).toHaveLength(3);
    expect(new Set(invoices).size).toBe(3);
    for (const label of invoices) expect(label).toMatch(/ · (1 field|4 fields \(2 nested\)) · /);
    // A schema with a name of its own is listed by its name alone.
    expect(await picker.locator('option', { hasText: LONG_NAME }).textContent()).toBe(LONG_NAME);
    // The longer labels do not widen the picker past the screen.
    const [box] = await placed(picker);
    expect(right(box!.box)).toBeLessThanOrEqual(size.width);
  });
});
