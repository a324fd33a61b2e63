import { createClassifier } from './classify.ts';
import {
  ELEMENT_NODE,
  TEXT_NODE,
  type ExtractEnv,
  type PElement,
  type PNode,
  type PSlot,
} from './dom.ts';
import { createInlineWriter } from './inline.ts';
import { definitions, list, listItem } from './lists.ts';
import { table } from './table.ts';
import { collapse, tidy } from './text.ts';
import type { Walk } from './walk.ts';

const NONE: ArrayLike<PNode> = [];

/**
 * Children as rendered: an open shadow root replaces the light DOM, a slot shows what it holds,
 * a same-origin iframe shows its document's body.
 */
function childrenOf(node: PNode, env: ExtractEnv): ArrayLike<PNode> {
  if (node.nodeType === ELEMENT_NODE) {
    const el = node as PElement;
    if (el.localName === 'iframe') return env.frameDocument(el)?.body?.childNodes ?? NONE;
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (el.localName === 'slot' && typeof (el as PSlot).assignedNodes === 'function') {
      const assigned = (el as PSlot).assignedNodes({ flatten: true });
      if (assigned.length > 0) return assigned;
    }
  }
  return node.childNodes;
}

/**
 * The recursive walk from a root element to Markdown blocks. Blocks start at block-level
 * elements; text and inline elements between them gather into runs that become paragraphs.
 * Stops adding blocks once `maxChars` have been written.
 */
export function createWalk(env: ExtractEnv, body: PElement | null, maxChars: number): Walk {
  const classify = createClassifier(env, body);
  const children = (node: PNode): ArrayLike<PNode> => childrenOf(node, env);
  const inline = createInlineWriter(env, classify, children);
  let emitted = 0;

  const push = (out: string[], block: string): void => {
    if (block === '' || emitted > maxChars) return;
    emitted += block.length + 2;
    out.push(block);
  };

  /** A page-level header is chrome, but the page's own H1 often lives in it. */
  const rescueHeading = (el: PElement, out: string[]): void => {
    if (el.localName !== 'header') return;
    const h1 = el.querySelector('h1');
    if (h1 && !classify.gone(h1)) push(out, `# ${tidy(collapse(inline.inlineOf(h1)))}`);
  };

  const renderChildren = (parent: PNode, out: string[]): void => {
    let run = '';
    const flush = (): void => {
      push(out, tidy(run));
      run = '';
    };
    const kids = children(parent);
    for (let i = 0; i < kids.length; i++) {
      if (emitted > maxChars) return;
      const child = kids[i];
      if (!child) continue;
      if (child.nodeType === TEXT_NODE) {
        run += collapse(child.nodeValue ?? '');
        continue;
      }
      if (child.nodeType !== ELEMENT_NODE) continue;
      const el = child as PElement;
      const v = classify.verdict(el);
      if (v === 'chrome') {
        rescueHeading(el, out);
        continue;
      }
      if (v === 'drop') continue;
      if (v === 'transparent') {
        flush();
        renderChildren(el, out);
        continue;
      }
      if (v === 'inline') {
        run += inline.inlineElement(el);
        continue;
      }
      flush();
      renderBlock(el, out);
    }
    flush();
  };

  const walk: Walk = {
    env,
    classify,
    childrenOf: children,
    inlineOf: (node) => inline.inlineOf(node),
    renderChildren,
    renderBlock: (el, out) => renderBlock(el, out),
    push,
  };

  const renderBlock = (el: PElement, out: string[]): void => {
    const tag = el.localName;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const t = tidy(inline.inlineOf(el)).replace(/\n/g, ' ');
      if (t) push(out, `${'#'.repeat(Number(heading[1]))} ${t}`);
      return;
    }
    switch (tag) {
      case 'ul':
      case 'ol':
        push(out, list(el, walk));
        return;
      case 'li':
        push(out, listItem(el, '-', walk));
        return;
      case 'table':
        table(el, out, walk);
        return;
      case 'pre': {
        const code = env.text(el).trimEnd();
        if (code) push(out, `\`\`\`\n${code}\n\`\`\``);
        return;
      }
      case 'blockquote': {
        const inner: string[] = [];
        renderChildren(el, inner);
        if (inner.length) push(out, inner.join('\n\n').replace(/^/gm, '> '));
        return;
      }
      case 'dl':
        push(out, definitions(el, walk));
        return;
      case 'hr':
        push(out, '---');
        return;
      default:
        renderChildren(el, out);
    }
  };

  return walk;
}
