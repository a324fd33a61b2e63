/**
 * Entry of the script that runs INSIDE the page (bundled by page-script.ts): reads the live DOM
 * through the browser's own view of it (computed styles, `innerText`, resolved URLs), so hidden
 * elements, `display: contents` and open shadow roots are seen as a reader sees them.
 */
import type { ExtractEnv, PDocument, PElement, PStyle } from './dom.ts';
import { extractMarkdown } from './extract.ts';

export interface PageSnapshot {
  title: string;
  /** The page body as Markdown blocks separated by blank lines (no title or URL header yet). */
  markdown: string;
  /** Length of the serialised DOM, a stand-in for the HTML size when the body is unavailable. */
  domChars: number;
  scrollHeight: number;
}

interface PageWindow {
  readonly document: PDocument & {
    readonly documentElement: { readonly scrollHeight: number; readonly outerHTML: string };
  };
  readonly location: { readonly href: string };
  getComputedStyle(el: PElement): PStyle;
}

export function snapshot(maxChars: number): PageSnapshot {
  const win = globalThis as unknown as PageWindow;
  const doc = win.document;
  const env: ExtractEnv = {
    style: (el) => win.getComputedStyle(el),
    text: (el) => (el as PElement & { innerText?: string }).innerText ?? el.textContent ?? '',
    url: (el, attr) => {
      const live = el as PElement & { href?: unknown; currentSrc?: unknown; src?: unknown };
      const value = attr === 'href' ? live.href : live.currentSrc || live.src;
      return typeof value === 'string' ? value : '';
    },
    documentUrl: win.location.href.split('#')[0] ?? '',
    frameDocument: (el) => {
      try {
        // Null for a cross-origin frame; the frame's own view then stays out of reach.
        return (el as PElement & { contentDocument?: PDocument | null }).contentDocument ?? null;
      } catch {
        return null;
      }
    },
  };
  const { title, markdown } = extractMarkdown(doc, env, maxChars);
  return {
    title,
    markdown,
    domChars: doc.documentElement.outerHTML.length,
    scrollHeight: doc.documentElement.scrollHeight,
  };
}
