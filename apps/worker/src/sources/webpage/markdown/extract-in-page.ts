import type {
  PAnchor,
  PCell,
  PElement,
  PHtmlElement,
  PImage,
  PNode,
  POrderedList,
  PSlot,
  PStyle,
  PTable,
  PWindow,
} from './page-types.ts';

export interface PageSnapshot {
  title: string;
  /** The page body as Markdown blocks separated by blank lines (no title or URL header yet). */
  markdown: string;
  /** Length of the serialised DOM, a stand-in for the HTML size when the body is unavailable. */
  domChars: number;
  scrollHeight: number;
}

/**
 * Converts the live DOM to Markdown. Runs INSIDE the page (serialised with `toString()`), so it
 * must not reference anything outside its own body. Working on the live DOM rather than on
 * serialised HTML lets it see what the browser actually shows: computed `display`, hidden
 * elements, open shadow roots and resolved link targets.
 */
export function extractInPage(maxChars: number): PageSnapshot {
  const win = globalThis as unknown as PWindow;
  const doc = win.document;
  const ELEMENT = 1;
  const TEXT = 3;

  const DROP = new Set([
    'script',
    'style',
    'noscript',
    'template',
    'svg',
    'canvas',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'nav',
    'aside',
    'form',
    'button',
    'select',
    'option',
    'input',
    'textarea',
    'dialog',
    'menu',
    'audio',
    'video',
    'map',
    'head',
    'link',
    'meta',
    'source',
    'track',
    'math',
  ]);
  const DROP_ROLES = new Set([
    'navigation',
    'complementary',
    'search',
    'dialog',
    'alertdialog',
    'menu',
    'menubar',
    'toolbar',
    'tooltip',
    'banner',
    'contentinfo',
  ]);
  const BLOCK_TAGS = new Set([
    'p',
    'div',
    'section',
    'article',
    'main',
    'header',
    'footer',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'table',
    'pre',
    'blockquote',
    'dl',
    'dt',
    'dd',
    'figure',
    'figcaption',
    'hr',
    'address',
    'details',
    'summary',
    'body',
    'center',
    'fieldset',
    'hgroup',
  ]);
  const INLINE_DISPLAYS = new Set(['inline', 'inline-block', 'inline-flex', 'inline-grid', 'ruby']);
  const CONSENT =
    /(^|[\s_-])(cookie|cookies|consent|gdpr|onetrust|cookiebot|cc-window|cmp)([\s_-]|$)/i;

  const styles = new Map<PElement, PStyle>();
  const style = (el: PElement): PStyle => {
    let s = styles.get(el);
    if (!s) {
      s = win.getComputedStyle(el);
      styles.set(el, s);
    }
    return s;
  };
  const text = (el: PElement): string =>
    ((el as PHtmlElement).innerText ?? el.textContent ?? '').trim();
  const bodyChars = doc.body ? text(doc.body).length : 0;
  let emitted = 0;

  const isChromeHeaderFooter = (el: PElement, role: string): boolean => {
    const tag = el.localName;
    if (tag !== 'header' && tag !== 'footer' && role !== 'banner' && role !== 'contentinfo')
      return false;
    // A header inside an article is the article's own (title, byline), not site chrome.
    return el.closest('article, main, [role="main"], [role="article"]') === null || role !== '';
  };

  /** 'drop' for hidden and chrome things, 'chrome' for page headers/footers, 'transparent' for display:contents. */
  const verdict = (el: PElement): 'drop' | 'chrome' | 'transparent' | 'block' | 'inline' => {
    const tag = el.localName;
    if (DROP.has(tag)) return 'drop';
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('hidden')) return 'drop';
    const role = (el.getAttribute('role') ?? '').toLowerCase();
    if (DROP_ROLES.has(role) && role !== 'banner' && role !== 'contentinfo') return 'drop';
    const s = style(el);
    if (s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse')
      return 'drop';
    if (isChromeHeaderFooter(el, role)) return 'chrome';
    const marker = `${el.id} ${el.getAttribute('class') ?? ''} ${el.getAttribute('aria-label') ?? ''}`;
    if (CONSENT.test(marker) && text(el).length < 3000) return 'drop';
    // Fixed overlays (newsletter pop-ups, chat widgets, sticky bars) unless the app lives in one.
    if (s.position === 'fixed' && text(el).length < Math.max(200, bodyChars * 0.3)) return 'drop';
    if (s.display === 'contents') return 'transparent';
    if (BLOCK_TAGS.has(tag)) return 'block';
    return INLINE_DISPLAYS.has(s.display) || s.display === '' ? 'inline' : 'block';
  };

  const gone = (el: PElement): boolean => {
    const v = verdict(el);
    return v === 'drop' || v === 'chrome';
  };

  const childrenOf = (node: PNode): ArrayLike<PNode> => {
    const el = node as PElement;
    if (node.nodeType === ELEMENT) {
      if (el.shadowRoot) return el.shadowRoot.childNodes;
      if (el.localName === 'slot') {
        const assigned = (el as PSlot).assignedNodes({ flatten: true });
        if (assigned.length > 0) return assigned;
      }
    }
    return node.childNodes;
  };

  const collapse = (s: string): string => s.replace(/[ \t\n\r\f\u00a0]+/g, ' ');
  const wrap = (inner: string, mark: string): string => {
    const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner);
    if (!m || m[2] === '') return inner;
    return `${m[1]}${mark}${m[2]}${mark}${m[3]}`;
  };
  const safeUrl = (url: string): string | null => {
    if (!/^(https?:|mailto:|tel:)/i.test(url) || url.length > 2000) return null;
    return url.replace(/[()\s]/g, (c) => encodeURIComponent(c));
  };
  const sameDocument = (href: string): boolean => {
    const here = win.location.href.split('#')[0];
    return href.startsWith(`${here}#`);
  };

  const image = (img: PImage): string => {
    const alt = collapse(img.alt ?? '').trim();
    if (alt === '') return '';
    const src = safeUrl(img.currentSrc || img.src);
    return src ? `![${alt}](${src})` : `![${alt}]`;
  };

  const inlineOf = (node: PNode): string => {
    let out = '';
    const kids = childrenOf(node);
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i];
      if (!child) continue;
      if (child.nodeType === TEXT) out += collapse(child.nodeValue ?? '');
      else if (child.nodeType === ELEMENT) out += inlineElement(child as PElement);
    }
    return out;
  };

  const inlineElement = (el: PElement): string => {
    const v = verdict(el);
    if (v === 'drop' || v === 'chrome') return '';
    const tag = el.localName;
    if (tag === 'br') return '\n';
    if (tag === 'img') return image(el as PImage);
    const inner = inlineOf(el);
    const padded = v === 'block' ? ` ${inner} ` : inner;
    switch (tag) {
      case 'a': {
        const label = collapse(inner).trim();
        const href = (el as PAnchor).href;
        if (label === '' || !href || sameDocument(href)) return padded;
        const target = safeUrl(href);
        return target ? wrapLink(padded, target) : padded;
      }
      case 'strong':
      case 'b':
        return wrap(padded, '**');
      case 'em':
      case 'i':
        return wrap(padded, '_');
      case 'code':
      case 'kbd':
      case 'samp':
        return wrap(padded, '`');
      case 's':
      case 'del':
        return wrap(padded, '~~');
      default:
        return padded;
    }
  };

  const wrapLink = (inner: string, href: string): string => {
    const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner);
    if (!m) return inner;
    return `${m[1]}[${collapse(m[2] ?? '')}](${href})${m[3]}`;
  };

  /** Trims each line of an inline run; `\n` only survives where a <br> put it. */
  const tidy = (s: string): string =>
    s
      .split('\n')
      .map((line) => line.replace(/ {2,}/g, ' ').trim())
      .filter((line) => line !== '')
      .join('\n');

  const push = (out: string[], block: string): void => {
    if (block === '' || emitted > maxChars) return;
    emitted += block.length + 2;
    out.push(block);
  };

  const renderChildren = (parent: PNode, out: string[]): void => {
    let run = '';
    const flush = (): void => {
      push(out, tidy(run));
      run = '';
    };
    const kids = childrenOf(parent);
    for (let i = 0; i < kids.length; i++) {
      if (emitted > maxChars) return;
      const child = kids[i];
      if (!child) continue;
      if (child.nodeType === TEXT) {
        run += collapse(child.nodeValue ?? '');
        continue;
      }
      if (child.nodeType !== ELEMENT) continue;
      const el = child as PElement;
      const v = verdict(el);
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
        run += inlineElement(el);
        continue;
      }
      flush();
      renderBlock(el, out);
    }
    flush();
  };

  /** A page-level header is chrome, but the page's own H1 often lives in it. */
  const rescueHeading = (el: PElement, out: string[]): void => {
    if (el.localName !== 'header') return;
    const h1 = el.querySelector('h1');
    if (h1 && !gone(h1)) push(out, `# ${tidy(collapse(inlineOf(h1)))}`);
  };

  const renderBlock = (el: PElement, out: string[]): void => {
    const tag = el.localName;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const t = tidy(inlineOf(el)).replace(/\n/g, ' ');
      if (t) push(out, `${'#'.repeat(Number(heading[1]))} ${t}`);
      return;
    }
    switch (tag) {
      case 'ul':
      case 'ol':
        push(out, list(el));
        return;
      case 'li':
        push(out, listItem(el, '-'));
        return;
      case 'table':
        table(el as PTable, out);
        return;
      case 'pre': {
        const code = ((el as PHtmlElement).innerText ?? el.textContent ?? '').replace(/\s+$/, '');
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
        push(out, definitions(el));
        return;
      case 'hr':
        push(out, '---');
        return;
      default:
        renderChildren(el, out);
    }
  };

  const listItem = (li: PElement, marker: string): string => {
    const inner: string[] = [];
    renderChildren(li, inner);
    if (inner.length === 0) return '';
    const indent = ' '.repeat(marker.length + 1);
    return `${marker} ${inner.join('\n').replace(/\n/g, `\n${indent}`)}`;
  };

  const list = (el: PElement): string => {
    const ordered = el.localName === 'ol';
    let n = ordered ? ((el as POrderedList).start ?? 1) : 1;
    const lines: string[] = [];
    const kids = childrenOf(el);
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i];
      if (!child || child.nodeType !== ELEMENT) continue;
      const item = child as PElement;
      if (gone(item)) continue;
      if (item.localName === 'ul' || item.localName === 'ol') {
        const nested = list(item);
        if (nested) lines.push(nested.replace(/^/gm, '  '));
        continue;
      }
      const rendered = listItem(item, ordered ? `${n}.` : '-');
      if (rendered) {
        lines.push(rendered);
        n += 1;
      }
    }
    return lines.join('\n');
  };

  const definitions = (el: PElement): string => {
    const lines: string[] = [];
    const kids = childrenOf(el);
    const visit = (node: PNode): void => {
      if (node.nodeType !== ELEMENT) return;
      const item = node as PElement;
      if (gone(item)) return;
      if (item.localName === 'div') {
        const inner = childrenOf(item);
        for (let j = 0; j < inner.length; j++) {
          const k = inner[j];
          if (k) visit(k);
        }
        return;
      }
      const t = tidy(inlineOf(item)).replace(/\n/g, ' ');
      if (!t) return;
      lines.push(item.localName === 'dt' ? `**${t}**` : `: ${t}`);
    };
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (k) visit(k);
    }
    return lines.join('\n');
  };

  const isLayoutTable = (t: PTable, width: number): boolean => {
    if ((t.getAttribute('role') ?? '') === 'presentation' || width <= 1) return true;
    return t.querySelector('table, h1, h2, h3, h4, h5, h6, ul, ol, pre, blockquote') !== null;
  };

  const table = (t: PTable, out: string[]): void => {
    const grid: string[][] = [];
    // Cells spanning rows are repeated so every Markdown row stands on its own.
    const carry: { text: string; left: number }[] = [];
    let width = 0;
    for (let r = 0; r < t.rows.length; r++) {
      const row = t.rows[r];
      if (!row || gone(row)) continue;
      const cells: string[] = [];
      let col = 0;
      const fillCarried = (): void => {
        let c = carry[col];
        while (c && c.left > 0) {
          cells.push(c.text);
          c.left -= 1;
          col += 1;
          c = carry[col];
        }
      };
      for (let c = 0; c < row.cells.length; c++) {
        const cell: PCell | undefined = row.cells[c];
        if (!cell) continue;
        fillCarried();
        const hidden = gone(cell);
        const content = hidden
          ? ''
          : tidy(inlineOf(cell)).replace(/\n/g, ' ').replace(/\|/g, '\\|');
        const span = Math.max(1, Math.min(cell.colSpan || 1, 50));
        for (let s = 0; s < span; s++) {
          cells.push(s === 0 ? content : '');
          if ((cell.rowSpan || 1) > 1)
            carry[col] = { text: content, left: Math.min(cell.rowSpan, 500) - 1 };
          col += 1;
        }
      }
      fillCarried();
      if (cells.some((c) => c !== '')) {
        grid.push(cells);
        width = Math.max(width, cells.length);
      }
    }
    if (grid.length === 0) return;
    if (isLayoutTable(t, width)) {
      for (let r = 0; r < t.rows.length; r++) {
        const row = t.rows[r];
        if (!row) continue;
        for (let c = 0; c < row.cells.length; c++) {
          const cell = row.cells[c];
          if (cell && !gone(cell)) renderChildren(cell, out);
        }
      }
      return;
    }
    const caption = t.caption && !gone(t.caption) ? tidy(inlineOf(t.caption)) : '';
    if (caption) push(out, `**${caption.replace(/\n/g, ' ')}**`);
    const line = (cells: string[]): string => {
      const padded = [...cells];
      while (padded.length < width) padded.push('');
      return `| ${padded.join(' | ')} |`;
    };
    const [head, ...body] = grid;
    const rows = [line(head ?? []), line(new Array<string>(width).fill('---')), ...body.map(line)];
    push(out, rows.join('\n'));
  };

  const pickRoot = (): PNode | null => {
    const body = doc.body;
    if (!body) return null;
    // <main> is the author's own statement of where the content is; trust it when it holds
    // most of the text, so chrome that is not marked up as nav/aside still falls away.
    const main = body.querySelector('main, [role="main"]') as PHtmlElement | null;
    if (main && !gone(main) && text(main).length >= bodyChars * 0.5) return main;
    return body;
  };

  const blocks: string[] = [];
  const root = pickRoot();
  if (root) renderChildren(root, blocks);
  const h1 = doc.body?.querySelector('h1');
  return {
    title: collapse(doc.title || (h1 ? text(h1) : '')).trim(),
    markdown: blocks.join('\n\n'),
    domChars: doc.documentElement.outerHTML.length,
    scrollHeight: doc.documentElement.scrollHeight,
  };
}

/**
 * The expression handed to `page.evaluate`. Tools that compile this file with esbuild's
 * keep-names option (tsx) insert `__name(...)` calls into the function body; the shim makes
 * the serialised function independent of how it was compiled.
 */
export function extractScript(maxChars: number): string {
  return `(() => { const __name = (f) => f; return (${extractInPage.toString()})(${JSON.stringify(maxChars)}); })()`;
}
