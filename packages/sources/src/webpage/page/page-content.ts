import type { Page } from 'playwright-core';
import { ExtractionFailure, type ContentPart, type PublicModel } from '@xt/contract';
import type { WebpageLogger } from '../logger.ts';
import {
  documentHeader,
  dropRepeatedBlocks,
  nonWhitespaceChars,
  splitBlocks,
  splitSections,
  type PageSnapshot,
} from '../markdown/index.ts';
import { tileGeometry, tileScreenshot } from './screenshot-tiles.ts';

export const VIEWPORT = { width: 1024, height: 768 };
/** Screenshots run only for pages without text; they get their own bound past the deadline. */
const SCREENSHOT_TIMEOUT_MS = 10_000;

export interface ContentSettings {
  minTextChars: number;
  maxScreenshotHeight: number;
  logger: WebpageLogger;
}

async function screenshotParts(
  page: Page,
  scrollHeight: number,
  opts: { model: PublicModel; settings: ContentSettings },
  firstUnit: number,
): Promise<ContentPart[]> {
  const height = Math.max(1, Math.min(scrollHeight, opts.settings.maxScreenshotHeight));
  try {
    const png = await page.screenshot({
      type: 'png',
      fullPage: true,
      clip: { x: 0, y: 0, width: VIEWPORT.width, height },
      timeout: SCREENSHOT_TIMEOUT_MS,
    });
    return await tileScreenshot(png, tileGeometry(opts.model), firstUnit);
  } catch (err) {
    opts.settings.logger.warn({ err }, 'webpage screenshot failed');
    return [];
  }
}

/**
 * The page as model input: Markdown sections (repeated blocks dropped, a header with title and
 * URL), plus screenshot tiles when there is too little text, unless the model takes no images
 * (`images: false`): then the screenshot is left out (`leftOut`). Fails when there is nothing
 * at all, as a TIMEOUT when the page had not even loaded its content.
 */
export async function contentParts(
  page: Page,
  read: { snapshot: PageSnapshot; finalUrl: string; contentLoaded: boolean },
  opts: { model: PublicModel; settings: ContentSettings; images?: boolean | undefined },
): Promise<{ parts: ContentPart[]; sections: string[]; screenshots: boolean; leftOut: boolean }> {
  const { snapshot, finalUrl } = read;
  const blocks = dropRepeatedBlocks(splitBlocks(snapshot.markdown));
  const sections = splitSections(documentHeader(snapshot.title, finalUrl), blocks);
  const parts: ContentPart[] = sections.map((text, i) => ({ kind: 'text', text, unit: i + 1 }));
  const bodyChars = nonWhitespaceChars(blocks.join('\n'));
  const wanted = bodyChars < opts.settings.minTextChars;
  const screenshots = wanted && opts.images !== false;
  if (screenshots)
    parts.push(...(await screenshotParts(page, snapshot.scrollHeight, opts, sections.length + 1)));
  if (bodyChars === 0 && parts.every((p) => p.kind === 'text')) {
    if (!read.contentLoaded) {
      throw new ExtractionFailure(
        'TIMEOUT',
        'The page had not rendered anything by the deadline.',
        { retryable: true },
      );
    }
    throw new ExtractionFailure('SOURCE_UNREADABLE', 'The page has no readable content.');
  }
  return { parts, sections, screenshots, leftOut: wanted && !screenshots };
}
