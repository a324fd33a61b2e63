import { ELEMENT_NODE, type PElement, type PNode } from './dom.ts';
import { tidy } from './text.ts';
import type { Walk } from './walk.ts';

/** One list item: its blocks joined, continuation lines indented under the marker. */
export function listItem(li: PElement, marker: string, walk: Walk): string {
  const inner: string[] = [];
  walk.renderChildren(li, inner);
  if (inner.length === 0) return '';
  const indent = ' '.repeat(marker.length + 1);
  return `${marker} ${inner.join('\n').replace(/\n/g, `\n${indent}`)}`;
}

/** A <ul> or <ol> as one Markdown list; nested lists are indented, numbering honours `start`. */
export function list(el: PElement, walk: Walk): string {
  const ordered = el.localName === 'ol';
  const start = Number.parseInt(el.getAttribute('start') ?? '', 10);
  let n = ordered && Number.isFinite(start) ? start : 1;
  const lines: string[] = [];
  const kids = walk.childrenOf(el);
  for (let i = 0; i < kids.length; i++) {
    const child = kids[i];
    if (!child || child.nodeType !== ELEMENT_NODE) continue;
    const item = child as PElement;
    if (walk.classify.gone(item)) continue;
    if (item.localName === 'ul' || item.localName === 'ol') {
      const nested = list(item, walk);
      if (nested) lines.push(nested.replace(/^/gm, '  '));
      continue;
    }
    const rendered = listItem(item, ordered ? `${n}.` : '-', walk);
    if (rendered) {
      lines.push(rendered);
      n += 1;
    }
  }
  return lines.join('\n');
}

/** A <dl>: terms in bold, each definition on its own `: ` line; <div> groups are looked through. */
export function definitions(el: PElement, walk: Walk): string {
  const lines: string[] = [];
  const visit = (node: PNode): void => {
    if (node.nodeType !== ELEMENT_NODE) return;
    const item = node as PElement;
    if (walk.classify.gone(item)) return;
    if (item.localName === 'div') {
      const inner = walk.childrenOf(item);
      for (let j = 0; j < inner.length; j++) {
        const k = inner[j];
        if (k) visit(k);
      }
      return;
    }
    const t = tidy(walk.inlineOf(item)).replace(/\n/g, ' ');
    if (!t) return;
    lines.push(item.localName === 'dt' ? `**${t}**` : `: ${t}`);
  };
  const kids = walk.childrenOf(el);
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (k) visit(k);
  }
  return lines.join('\n');
}
