import type { Classifier } from './classify.ts';
import { ELEMENT_NODE, TEXT_NODE, type ExtractEnv, type PElement, type PNode } from './dom.ts';
import { collapse, safeUrl, wrap, wrapLink } from './text.ts';

const MARKS: Record<string, string> = {
  strong: '**',
  b: '**',
  em: '_',
  i: '_',
  code: '`',
  kbd: '`',
  samp: '`',
  s: '~~',
  del: '~~',
};

/** `aria-label` and `title`, trimmed, the non-empty ones. */
function labelsOf(el: PElement): string[] {
  return [el.getAttribute('aria-label'), el.getAttribute('title')]
    .map((t) => collapse(t ?? '').trim())
    .filter((t) => t !== '');
}

/**
 * A label that holds a figure the visible text lacks (an icon link labelled with its price, a
 * "yesterday" titled with its date), as ` (label)`; '' otherwise.
 */
function spokenExtra(el: PElement, visible: string): string {
  const extra = labelsOf(el).find((t) => /\d/.test(t) && !visible.includes(t));
  return extra ? ` (${extra})` : '';
}

export interface InlineWriter {
  /** The node's content as one inline run: text, links, emphasis and images. */
  inlineOf(node: PNode): string;
  inlineElement(el: PElement): string;
}

/** Writes inline content: links keep their targets, emphasis its marks, images their alt text. */
export function createInlineWriter(
  env: ExtractEnv,
  classify: Classifier,
  childrenOf: (node: PNode) => ArrayLike<PNode>,
): InlineWriter {
  const sameDocument = (href: string): boolean => href.startsWith(`${env.documentUrl}#`);

  const image = (img: PElement): string => {
    const alt = collapse(img.getAttribute('alt') ?? '').trim();
    if (alt === '') return '';
    const src = safeUrl(env.url(img, 'src'));
    return src ? `![${alt}](${src})` : `![${alt}]`;
  };

  const inlineOf = (node: PNode): string => {
    let out = '';
    const kids = childrenOf(node);
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i];
      if (!child) continue;
      if (child.nodeType === TEXT_NODE) out += collapse(child.nodeValue ?? '');
      else if (child.nodeType === ELEMENT_NODE) out += inlineElement(child as PElement);
    }
    return out;
  };

  const inlineElement = (el: PElement): string => {
    const v = classify.verdict(el);
    if (v === 'drop' || v === 'chrome') return '';
    const tag = el.localName;
    if (tag === 'br') return '\n';
    if (tag === 'img') return image(el);
    const inner = inlineOf(el);
    const visible = collapse(inner).trim();
    if (tag === 'button') {
      // Controls are not content, unless they carry a figure (a price, a date) a reader sees.
      const figure = [visible, ...labelsOf(el)].find((t) => /\d/.test(t));
      return figure ? ` ${figure} ` : '';
    }
    const spoken = spokenExtra(el, visible);
    const padded = v === 'block' ? ` ${inner} ` : inner;
    if (tag === 'a') {
      const label = visible || labelsOf(el)[0] || '';
      const text = visible ? `${padded}${spoken}` : label;
      const href = env.url(el, 'href');
      if (label === '' || !href || sameDocument(href)) return text;
      const target = safeUrl(href);
      return target ? wrapLink(text, target) : text;
    }
    const mark = MARKS[tag];
    return `${mark ? wrap(padded, mark) : padded}${spoken}`;
  };

  return { inlineOf, inlineElement };
}
