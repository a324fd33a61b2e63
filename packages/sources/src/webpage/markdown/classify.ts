import type { ExtractEnv, PElement, PStyle } from './dom.ts';
import { BLOCK_TAGS, CONSENT, DROP_ROLES, DROP_TAGS, INLINE_DISPLAYS } from './rules.ts';

/**
 * - drop: hidden, navigation, overlays, embeds: nothing of it is read;
 * - chrome: a page-level header or footer (only its H1 is rescued);
 * - transparent: `display: contents`, read as if its children stood in its place;
 * - block / inline: content, starting a new block or flowing into the current one.
 */
export type Verdict = 'drop' | 'chrome' | 'transparent' | 'block' | 'inline';

export interface Classifier {
  verdict(el: PElement): Verdict;
  /** Dropped or chrome: nothing of it reaches the Markdown. */
  gone(el: PElement): boolean;
  /** Characters of readable text in the whole body, the yardstick for overlays and <main>. */
  readonly bodyChars: number;
}

function isChromeHeaderFooter(el: PElement, role: string): boolean {
  const tag = el.localName;
  if (tag !== 'header' && tag !== 'footer' && role !== 'banner' && role !== 'contentinfo')
    return false;
  if (role !== '') return true;
  // A header inside an article is the article's own (title, byline), not site chrome; so is
  // one holding the page's H1 with a paragraph (a standfirst), which story pages put above
  // <main>. A site header's H1 alone (a logo, a page name) is still rescued by itself.
  if (tag === 'header' && el.querySelector('h1') !== null && el.querySelector('p') !== null)
    return false;
  return el.closest('article, main, [role="main"], [role="article"]') === null;
}

/** Classifies elements once per extraction; computed styles are cached (each costs a style pass). */
export function createClassifier(env: ExtractEnv, body: PElement | null): Classifier {
  const styles = new Map<PElement, PStyle>();
  const style = (el: PElement): PStyle => {
    let s = styles.get(el);
    if (!s) {
      s = env.style(el);
      styles.set(el, s);
    }
    return s;
  };
  const bodyChars = body ? env.text(body).trim().length : 0;

  const verdict = (el: PElement): Verdict => {
    const tag = el.localName;
    if (DROP_TAGS.has(tag)) return 'drop';
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('hidden')) return 'drop';
    const role = (el.getAttribute('role') ?? '').toLowerCase();
    if (DROP_ROLES.has(role)) return 'drop';
    const s = style(el);
    if (s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse')
      return 'drop';
    if (isChromeHeaderFooter(el, role)) return 'chrome';
    const marker = `${el.id} ${el.getAttribute('class') ?? ''} ${el.getAttribute('aria-label') ?? ''}`;
    if (CONSENT.test(marker) && env.text(el).trim().length < 3000) return 'drop';
    // Fixed overlays (newsletter pop-ups, chat widgets, sticky bars) unless the app lives in one.
    if (s.position === 'fixed' && env.text(el).trim().length < Math.max(200, bodyChars * 0.3))
      return 'drop';
    if (s.display === 'contents') return 'transparent';
    if (BLOCK_TAGS.has(tag)) return 'block';
    return INLINE_DISPLAYS.has(s.display) || s.display === '' ? 'inline' : 'block';
  };

  return {
    verdict,
    gone: (el) => {
      const v = verdict(el);
      return v === 'drop' || v === 'chrome';
    },
    bodyChars,
  };
}
