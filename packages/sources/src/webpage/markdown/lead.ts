import type { PElement } from './dom.ts';
import { collapse } from './text.ts';
import type { Walk } from './walk.ts';

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

/** Short prose a reader sees: what a standfirst, byline or dateline looks like. */
function isLeadBlock(el: PElement, walk: Walk): boolean {
  if (walk.classify.gone(el)) return false;
  const chars = walk.env.text(el).trim().length;
  return chars <= MAX_LEAD_CHARS && !isLinkList(el, walk, chars);
}

/** The first H1 in `within` that is read: neither it nor anything between them is dropped. */
function readHeadline(within: PElement, walk: Walk): PElement | null {
  for (const h1 of Array.from(within.querySelectorAll('h1'))) {
    let el: PElement | null = h1;
    while (el && el !== within && !walk.classify.gone(el)) el = el.parentElement;
    if (el === within) return h1;
  }
  return null;
}

const headlineText = (h1: PElement, walk: Walk): string => collapse(walk.env.text(h1)).trim();

/**
 * The story's opening inside a block passed over as a whole. "Immersive" layouts put the
 * headline over a full-width picture in one block with the site's masthead and menu, and the
 * standfirst and byline in a wrapper after it: the block is long and mostly links, yet what
 * follows its headline is the story's. Only a headline that is the story's own counts (main
 * has none a reader sees, or the same words), so a site name set as an H1 opens nothing. The
 * headline itself comes too when main's copy is hidden.
 */
function openingIn(block: PElement, main: PElement, walk: Walk): PElement[] {
  const h1 = readHeadline(block, walk);
  if (!h1) return [];
  const own = readHeadline(main, walk);
  if (own && headlineText(own, walk) !== headlineText(h1, walk)) return [];
  const opening = own ? [] : [h1];
  for (let el: PElement | null = h1; el && el !== block; el = el.parentElement) {
    let scanned = 0;
    for (
      let next = el.nextElementSibling;
      next && scanned < MAX_LEAD_SCAN && opening.length < MAX_LEAD_BLOCKS;
      next = next.nextElementSibling
    ) {
      scanned += 1;
      if (isLeadBlock(next, walk)) opening.push(next);
    }
  }
  return opening;
}

/**
 * Short visible siblings before <main> (and before each of its ancestors): pages often put the
 * standfirst, byline, dateline or summary above the main element, or in a rail shown beside it
 * that comes first in the DOM, and reading <main> alone drops them. A long block or a list of
 * links between them and <main> (most read, related stories, share tools) is passed over, not
 * taken as the end of the lead; when it holds the story's headline, what follows the headline
 * in it is taken (see openingIn).
 */
export function leadOf(main: PElement, walk: Walk): PElement[] {
  const lead: PElement[] = [];
  let opened = false;
  for (let el: PElement | null = main; el && el.localName !== 'body'; el = el.parentElement) {
    const level: PElement[] = [];
    let scanned = 0;
    let taken = 0;
    for (
      let prev = el.previousElementSibling;
      prev && scanned < MAX_LEAD_SCAN && taken < MAX_LEAD_BLOCKS;
      prev = prev.previousElementSibling
    ) {
      scanned += 1;
      if (walk.classify.gone(prev)) continue;
      if (isLeadBlock(prev, walk)) {
        level.unshift(prev);
        taken += 1;
        continue;
      }
      if (opened) continue;
      const opening = openingIn(prev, main, walk);
      if (opening.length === 0) continue;
      opened = true;
      level.unshift(...opening);
      taken += 1;
    }
    lead.unshift(...level);
  }
  return lead;
}
