import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import * as fx from '@xt/testkit/fixtures';
import { contentParts } from './page-content.ts';

const logger = { warn: vi.fn(), info: vi.fn(), debug: vi.fn(), error: vi.fn() };
const settings = { minTextChars: 200, maxScreenshotHeight: 8000, logger: logger as never };

async function fakePage() {
  const png = await fx.pngImage({ width: 1024, height: 768 });
  const screenshot = vi.fn(() => Promise.resolve(png));
  return { page: { screenshot } as unknown as Page, screenshot };
}

const read = {
  snapshot: { title: 'Sale', markdown: 'Price 12.50 EUR', domChars: 100, scrollHeight: 768 },
  finalUrl: 'https://shop.example/sale',
  contentLoaded: true,
};

describe('contentParts', () => {
  it('adds a screenshot to a page with little text for a model that takes images', async () => {
    const { page, screenshot } = await fakePage();
    const content = await contentParts(page, read, { model: 'gpt-4.1', settings });
    expect(screenshot).toHaveBeenCalledOnce();
    expect(content.parts.some((p) => p.kind === 'image')).toBe(true);
    expect(content.leftOut).toBe(false);
  });

  it('takes no screenshot for a model that takes no images, and says it left one out', async () => {
    const { page, screenshot } = await fakePage();
    const content = await contentParts(page, read, {
      model: 'gpt-4.1',
      settings,
      images: false,
    });
    expect(screenshot).not.toHaveBeenCalled();
    expect(content.parts.every((p) => p.kind === 'text')).toBe(true);
    expect(content.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n')).toContain(
      'Price 12.50 EUR',
    );
    expect(content).toMatchObject({ screenshots: false, leftOut: true });
  });
});
