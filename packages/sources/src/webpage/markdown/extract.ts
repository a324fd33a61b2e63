import { createWalk } from './blocks.ts';
import type { ExtractEnv, PDocument, PElement, PNode } from './dom.ts';
import type { Walk } from './walk.ts';
import { collapse } from './text.ts';

/** Text a standfirst, byline or summary may hold; a longer sibling of <main> is not its lead. */
const MAX_LEAD_CHARS = 1000;
/** Siblings looked at before <main> on each level, and how many of them may form its lead. */
const MAX_LEAD_SCAN = 8;
const MAX_LEAD_BLOCKS = 5;
/** Share of a block's text inside links above which it is a list of links, not prose. */
const MAX_LEAD_LINK_SHARE = 0.5;

function isLinkList(el: PElement, walk: Walk, chars: number): boolean {
  let linked = 0;
  for (const a of Array.from(el.querySelectorAll('a'))) linked += walk.env.text(a).trim().length;
  return chars > 0 && linked / chars > MAX_LEAD_LINK_SHARE;
}

/**
 * Short visible siblings before <main> (and before each of its ancestors): pages often put the
 * standfirst, byline, dateline or summary above the main element, or in a rail shown beside it
 * that comes first in the DOM, and reading <main> alone drops them. A long block or a list of
 * links between them and <main> (most read, related stories, share tools) is passed over, not
 * taken as the end of the lead.
 */
function leadOf(main: PElement, walk: Walk): PElement[] {
  const lead: PElement[] = [];
  for (let el: PElement | null = main; el && el.localName !== 'body'; el = el.parentElement) {
    const level: PElement[] = [];
    let scanned = 0;
    for (
      let prev = el.previousElementSibling;
      prev && scanned < MAX_LEAD_SCAN && level.length < MAX_LEAD_BLOCKS;
      prev = prev.previousElementSibling
    ) {
      scanned += 1;
      if (walk.classify.gone(prev)) continue;
      const chars = walk.env.text(prev).trim().length;
      if (chars > MAX_LEAD_CHARS || isLinkList(prev, walk, chars)) continue;
      level.unshift(prev);
    }
    lead.unshift(...level);
  }
  return lead;
}

export interface ExtractedMarkdown {
  title: string;
  /** The page body as Markdown blocks separated by blank lines (no title or URL header). */
  markdown: string;
}

/**
 * Turns a document into Markdown. The same code runs inside Chromium (bundled into the page,
 * see page-script.ts) and over HTML text parsed in Node (html.ts); `env` supplies what differs.
 */
export function extractMarkdown(
  doc: PDocument,
  env: ExtractEnv,
  maxChars: number,
): ExtractedMarkdown {
  const body = doc.body;
  const walk = createWalk(env, body, maxChars);
  const pickRoot = (): PNode | null => {
    if (!body) return null;
    // <main> is the author's own statement of where the content is; trust it when it holds
    // most of the text, so chrome that is not marked up as nav/aside still falls away.
    const main = body.querySelector('main, [role="main"]');
    if (
      main &&
      !walk.classify.gone(main) &&
      env.text(main).trim().length >= walk.classify.bodyChars * 0.5
    )
      return main;
    return body;
  };
  const blocks: string[] = [];
  const root = pickRoot();
  if (root && root !== body)
    for (const lead of leadOf(root as PElement, walk)) walk.renderBlock(lead, blocks);
  if (root) walk.renderChildren(root, blocks);
  const h1: PElement | null | undefined = body?.querySelector('h1');
  return {
    title: collapse(doc.title || (h1 ? env.text(h1) : '')).trim(),
    markdown: blocks.join('\n\n'),
  };
}
