import { Parser } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import type { ExtractEnv, PDocument, PElement, PNode, PStyle } from './dom.ts';
import { ELEMENT_NODE, TEXT_NODE } from './dom.ts';
import { extractMarkdown, type ExtractedMarkdown } from './extract.ts';
import { dropRepeatedBlocks, splitBlocks } from './finish.ts';

export interface HtmlToMarkdownOptions {
  /** Where the HTML came from: relative links and images resolve against it (or its <base>). */
  url?: string;
  /** Markdown longer than this is cut; default 4,000,000 characters. */
  maxChars?: number;
}

/** Tags a browser lays out as blocks by default that the extractor does not already treat so. */
const DEFAULT_BLOCK = new Set([
  'html',
  'legend',
  'caption',
  'colgroup',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'search',
  'listing',
  'plaintext',
  'xmp',
  'dir',
]);
/** Never read as text, just as the browser never shows it. */
const UNREAD = new Set(['script', 'style', 'noscript', 'template', 'head']);

/** `display`, `visibility` and `position` from the inline `style` attribute, the last one winning. */
function inlineStyle(el: PElement): PStyle {
  const decl: Record<string, string> = {};
  for (const part of (el.getAttribute('style') ?? '').split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const name = part.slice(0, colon).trim().toLowerCase();
    decl[name] = part
      .slice(colon + 1)
      .replace(/!important/i, '')
      .trim()
      .toLowerCase();
  }
  return {
    display: decl.display ?? (DEFAULT_BLOCK.has(el.localName) ? 'block' : 'inline'),
    visibility: decl.visibility ?? 'visible',
    position: decl.position ?? 'static',
  };
}

function readableText(node: PNode): string {
  if (node.nodeType === TEXT_NODE) return node.nodeValue ?? '';
  if (node.nodeType !== ELEMENT_NODE || UNREAD.has((node as PElement).localName)) return '';
  let out = '';
  const kids = node.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (k) out += readableText(k);
  }
  return out;
}

function absolute(raw: string, base: string | undefined): string {
  try {
    return new URL(raw.trim(), base).href;
  } catch {
    return '';
  }
}

interface ParsedDocument extends PDocument {
  querySelector(selector: string): PElement | null;
}

/**
 * Deepest element nesting read. Chromium's own parser stops nesting at 512, so no page a browser
 * shows needs more; linkedom's tree building slows with the square of the depth (60,000 levels
 * took seconds) and the walk recurses once per level.
 */
export const MAX_HTML_DEPTH = 2_000;

/** HTML nested deeper than MAX_HTML_DEPTH: refused before it is parsed into a tree. */
export class HtmlTooDeepError extends Error {
  constructor() {
    super(`The HTML nests elements more than ${MAX_HTML_DEPTH} deep.`);
    this.name = 'HtmlTooDeepError';
  }
}

/** One linear pass of the tokenizer linkedom itself uses, counting open elements. */
function checkDepth(html: string): void {
  let depth = 0;
  const parser = new Parser({
    onopentag() {
      if (++depth > MAX_HTML_DEPTH) throw new HtmlTooDeepError();
    },
    onclosetag() {
      depth--;
    },
  });
  parser.end(html);
}

function parse(html: string): ParsedDocument {
  checkDepth(html);
  // linkedom builds no <body> around a fragment, as a browser would: give it one.
  const whole = /<(html|body)[\s>]/i.test(html)
    ? html
    : `<!doctype html><html><head></head><body>${html}</body></html>`;
  // linkedom's types describe the DOM lib, which this Node program is compiled without.
  const parsed = parseHTML(whole) as unknown as { document: ParsedDocument };
  return parsed.document;
}

/**
 * The Markdown a webpage source would give for this HTML, read statically: no script runs and no
 * stylesheet applies (only inline styles and the `hidden` attribute hide things), so it suits
 * HTML that is itself the content (an uploaded file), not pages that build themselves in script.
 * Repeated boilerplate blocks are dropped as for webpages; no title/URL header is added.
 * Throws HtmlTooDeepError for HTML nested past MAX_HTML_DEPTH.
 */
export function htmlToMarkdown(html: string, opts: HtmlToMarkdownOptions = {}): ExtractedMarkdown {
  const doc = parse(html);
  const declaredBase = doc.querySelector('base[href]')?.getAttribute('href');
  const base = declaredBase ? absolute(declaredBase, opts.url) || opts.url : opts.url;
  const env: ExtractEnv = {
    style: inlineStyle,
    text: readableText,
    url: (el, attr) => {
      const raw = el.getAttribute(attr);
      return raw ? absolute(raw, base) : '';
    },
    documentUrl: opts.url ? (absolute(opts.url, undefined).split('#')[0] ?? '') : '',
    // A static read loads nothing, so there is no frame document to read.
    frameDocument: () => null,
  };
  const { title, markdown } = extractMarkdown(doc, env, opts.maxChars ?? 4_000_000);
  return { title, markdown: dropRepeatedBlocks(splitBlocks(markdown)).join('\n\n') };
}
