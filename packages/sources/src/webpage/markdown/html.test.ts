import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html.ts';

const page = (body: string, head = '<title>T</title>'): string =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const md = (body: string, url = 'https://site.example/dir/page'): string =>
  htmlToMarkdown(page(body), { url }).markdown;

describe('htmlToMarkdown (parsed HTML, no scripts)', () => {
  it('writes headings, paragraphs and inline marks', () => {
    expect(
      md(
        '<h1>Title</h1><p>Some <strong>bold</strong>, <em>soft</em> and <code>x=1</code> <del>old</del>.</p><h3>Sub</h3>',
      ),
    ).toBe('# Title\n\nSome **bold**, _soft_ and `x=1` ~~old~~.\n\n### Sub');
  });

  it('keeps marks outside the spaces they enclose and collapses whitespace', () => {
    expect(md('<p>a<b> bold </b>b\n\n   c&nbsp;&nbsp;d</p>')).toBe('a **bold** b c d');
  });

  it('resolves links and images against the URL and drops in-page and script links', () => {
    const out = md(
      '<p><a href="../other?q=(1)">other page</a> <a href="#top">top</a> <a href="javascript:void 0">js</a> <img src="/i.png" alt="Logo"> <img src="/x.png" alt=""></p>',
    );
    expect(out).toBe(
      '[other page](https://site.example/other?q=%281%29) top js ![Logo](https://site.example/i.png)',
    );
  });

  it('honours <base href>', () => {
    const out = htmlToMarkdown(
      page('<a href="doc">Doc</a>', '<base href="https://cdn.example/root/">'),
      { url: 'https://site.example/' },
    ).markdown;
    expect(out).toBe('[Doc](https://cdn.example/root/doc)');
  });

  it('writes nested lists, ordered lists from their start, and definition lists', () => {
    expect(md('<ul><li>One</li><li>Two<ul><li>Two a</li></ul></li></ul>')).toBe(
      '- One\n- Two\n  - Two a',
    );
    expect(md('<ol start="3"><li>Three</li><li><p>Four</p><p>more</p></li></ol>')).toBe(
      '3. Three\n4. Four\n   more',
    );
    expect(md('<dl><div><dt>Term</dt><dd>Meaning</dd></div></dl>')).toBe('**Term**\n: Meaning');
  });

  it('writes quotes, code blocks and rules', () => {
    expect(
      md('<blockquote><p>Quoted</p><p>twice</p></blockquote><hr><pre>  a = 1\nb = 2\n</pre>'),
    ).toBe('> Quoted\n>\n> twice\n\n---\n\n```\n  a = 1\nb = 2\n```');
  });

  it('turns data tables into Markdown, repeating row spans and escaping pipes', () => {
    const out = md(`<table><caption>Prices</caption>
      <thead><tr><th>Item</th><th>Qty</th><th>Price</th></tr></thead>
      <tfoot><tr><td colspan="2">Total</td><td>30</td></tr></tfoot>
      <tbody><tr><td rowspan="2">A | B</td><td>1</td><td>10</td></tr><tr><td>2</td><td>20</td></tr></tbody>
    </table>`);
    expect(out).toBe(
      '**Prices**\n\n| Item | Qty | Price |\n| --- | --- | --- |\n| A \\| B | 1 | 10 |\n| A \\| B | 2 | 20 |\n| Total |  | 30 |',
    );
  });

  it('reads layout tables as text', () => {
    expect(
      md('<table role="presentation"><tr><td><p>Left</p></td><td><p>Right</p></td></tr></table>'),
    ).toBe('Left\n\nRight');
    expect(md('<table><tr><td><h2>Inside</h2></td><td>x</td></tr></table>')).toBe('## Inside\n\nx');
  });

  it('drops hidden elements, navigation, forms, scripts and consent banners', () => {
    const out = md(`<p>Kept</p><p style="display: none">styled away</p><p hidden>hidden attr</p>
      <p aria-hidden="true">aria hidden</p><p style="visibility:hidden">invisible</p>
      <nav>Menu</nav><aside>Aside</aside><form>Form text</form><div role="navigation">Role nav</div>
      <script>script text</script><style>p{}</style><div id="cookie-banner">We use cookies</div>
      <div style="position: fixed">Subscribe now</div>`);
    expect(out).toBe('Kept');
  });

  it('treats page headers and footers as chrome but rescues the header H1', () => {
    const out = md(
      '<header><a href="/">Home</a><h1>Page title</h1></header><article><header><p>By Ann</p></header><p>Body</p></article><footer>Legal</footer>',
    );
    expect(out).toBe('# Page title\n\nBy Ann\n\nBody');
  });

  it('reads <main> when it holds most of the text, with the short lead just above it', () => {
    const long = 'Main content. '.repeat(150).trim();
    const teaser = 'Teaser text. '.repeat(100).trim();
    expect(
      md(
        `<div>${teaser}</div><div class="lead"><p>Standfirst here.</p><p>By Ann</p></div><main><p>${long}</p></main>`,
      ),
    ).toBe(`Standfirst here.\n\nBy Ann\n\n${long}`);
    expect(md('<div>Most of the text is outside main, here.</div><main>tiny</main>')).toBe(
      'Most of the text is outside main, here.\n\ntiny',
    );
  });

  it('keeps figures found only in aria-label or title of links, buttons and dates', () => {
    const out = md(
      '<p><a href="/buy" aria-label="Buy for 4.99 euros"><span></span></a> <a href="/x" title="Offer ends 2 May">Offer</a> <button aria-label="Next meeting 2 April 2026">i</button> <button>Accept all</button> Posted <time title="14 March 2026">yesterday</time>.</p>',
    );
    expect(out).toBe(
      '[Buy for 4.99 euros](https://site.example/buy) [Offer (Offer ends 2 May)](https://site.example/x) Next meeting 2 April 2026 Posted yesterday (14 March 2026).',
    );
  });

  it('names every column under a merged header and stacks header rows', () => {
    const out = md(`<table><thead>
      <tr><th rowspan="2">Area</th><th colspan="2">2025</th><th colspan="2">2026</th></tr>
      <tr><th>Plan</th><th>Actual</th><th>Plan</th><th>Actual</th></tr></thead>
      <tbody><tr><td>Transport</td><td>20</td><td>22</td><td>24</td><td>25</td></tr>
      <tr><td colspan="3">Subtotal</td><td>24</td><td>25</td></tr></tbody></table>`);
    expect(out).toBe(
      [
        '| Area | 2025 Plan | 2025 Actual | 2026 Plan | 2026 Actual |',
        '| --- | --- | --- | --- | --- |',
        '| Transport | 20 | 22 | 24 | 25 |',
        '| Subtotal |  |  | 24 | 25 |',
      ].join('\n'),
    );
  });

  it('keeps the content of <details>', () => {
    expect(md('<details><summary>More</summary><p>Hidden until opened</p></details>')).toBe(
      'More\n\nHidden until opened',
    );
  });

  it('drops blocks repeated three times or more, once', () => {
    expect(md('<p>Share</p><p>A</p><p>Share</p><p>B</p><p>Share</p>')).toBe('Share\n\nA\n\nB');
  });

  it('takes the title from <title>, else the first H1', () => {
    expect(htmlToMarkdown(page('<p>x</p>', '<title> My  page </title>')).title).toBe('My page');
    expect(htmlToMarkdown(page('<h1>Heading</h1>', '')).title).toBe('Heading');
  });

  it('accepts a fragment without <html> or <body>', () => {
    expect(htmlToMarkdown('<h2>Frag</h2><p>ment</p>').markdown).toBe('## Frag\n\nment');
  });

  it('stops adding blocks past maxChars', () => {
    const body = Array.from({ length: 50 }, (_, i) => `<p>Paragraph number ${i}</p>`).join('');
    const out = htmlToMarkdown(page(body), { maxChars: 100 }).markdown;
    expect(out.split('\n\n').length).toBeLessThan(10);
    expect(out.startsWith('Paragraph number 0')).toBe(true);
  });
});
