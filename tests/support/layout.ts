/**
 * Layout checks for the dashboard's browser tests: where things are drawn, in CSS pixels of the
 * page as it is on screen, so a test can say "on one row", "does not overlap", "in view".
 */
import type { Locator, Page } from 'playwright-core';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Placed {
  /** The element's text, to name it in a failure. */
  text: string;
  box: Box;
}

/** The DOM's side of an element, as far as these checks use it (the tests compile without DOM types). */
interface Drawn {
  textContent: string | null;
  getBoundingClientRect(): Box;
}

/**
 * Every element `locator` matches that is drawn, with its box on screen, read in one go so that
 * a re-render between two reads cannot mix two layouts.
 */
export async function placed(locator: Locator): Promise<Placed[]> {
  const all = await locator.evaluateAll((elements) =>
    elements.map((e) => {
      const drawn = e as unknown as Drawn;
      const r = drawn.getBoundingClientRect();
      return {
        text: (drawn.textContent ?? '').trim(),
        box: { x: r.x, y: r.y, width: r.width, height: r.height },
      };
    }),
  );
  return all.filter((p) => p.box.width > 0 && p.box.height > 0);
}

/** Resolves once the page has drawn twice more: whatever a resize set off has been laid out. */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(
    'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))',
  );
}

const intersect = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The pairs that overlap, as `"a" × "b"`: none for a layout where nothing covers anything. */
export function overlapping(items: Placed[]): string[] {
  const pairs: string[] = [];
  items.forEach((a, i) =>
    items.slice(i + 1).forEach((b) => {
      if (intersect(a.box, b.box)) pairs.push(`"${a.text}" × "${b.text}"`);
    }),
  );
  return pairs;
}

/** Whether the box is wholly inside the window as it is scrolled now. */
export function inViewport(page: Page, box: Box): boolean {
  const size = page.viewportSize();
  if (!size) throw new Error('the page has no fixed viewport');
  return (
    box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height
  );
}
