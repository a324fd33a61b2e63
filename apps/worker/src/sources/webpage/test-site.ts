/**
 * Fixture pages for the renderer's tests and benchmark: a site on 127.0.0.1 (allow-listed by the
 * tests) and a canary on another port (never allow-listed) that counts every connection. Each
 * content page lists the facts that must survive into the Markdown.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';

export interface FixturePage {
  path: string;
  /** Strings the Markdown must contain. */
  facts: string[];
  /** Whether the page is mostly text (benchmarked) or a special case. */
  content: boolean;
}

export interface CanaryCounts {
  connections: number;
  requests: number;
  upgrades: number;
  connects: number;
}

export interface TestSite {
  origin: string;
  /** host:port of the fixture site, for SOURCE_ALLOWLIST. */
  hostPort: string;
  canaryOrigin: string;
  canary: Readonly<CanaryCounts>;
  pages: FixturePage[];
  close(): Promise<void>;
}

const html = (title: string, body: string, head = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const CHROME = `
<header class="site-header"><a href="/">Acme Home</a><nav><a href="/a">Products</a> <a href="/b">Pricing</a> <a href="/c">Careers</a></nav></header>
<div id="cookie-consent" style="position:fixed;bottom:0">We use cookies to improve your experience. <button>Accept all</button></div>`;
const FOOTER = `<footer class="site-footer"><p>Copyright 2026 Acme Corp. All rights reserved.</p><nav><a href="/privacy">Privacy policy</a></nav></footer>`;

function articlePage(): string {
  const paras = Array.from(
    { length: 12 },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the quarterly report discusses revenue in region ${i + 1}, with growth driven by <a href="/regions/${i + 1}">regional partners</a> and steady renewals.</p><p class="share">Share this: Twitter Facebook LinkedIn</p>`,
  ).join('');
  return html(
    'Quarterly Report',
    `${CHROME}<main><article><header><h1>Quarterly Report Q3</h1><p>By Dana Whitfield</p></header>
<p>Total revenue reached <strong>EUR 4.2 million</strong> in the third quarter.</p>
<h2>Highlights</h2>
<ul><li>New customers: 312</li><li>Churn fell to 1.8%<ul><li>Enterprise churn: 0.4%</li></ul></li></ul>
<ol start="3"><li>Third step</li><li>Fourth step</li></ol>
<dl><dt>Fiscal year</dt><dd>Ends on 31 March</dd></dl>
<blockquote><p>Best quarter in our history.</p></blockquote>
<pre><code>total = sum(invoices)</code></pre>
<p>Read the <a href="/full-report.html">full report</a>. <img src="/logo.png" alt="Acme logo"></p>
<p style="display:none">Hidden draft figure 999999</p>
<p aria-hidden="true">Decorative duplicate 888888</p>
${paras}
</article><aside><h3>Related</h3><p>Sidebar teaser 777777</p></aside></main>
<script>var ignored = "script text 666666";</script><style>.x{color:red}</style><noscript>Enable JS 555555</noscript>
${FOOTER}`,
  );
}

/**
 * A news article shaped like real ones: a standfirst and byline just above <main>, a price and a
 * date only in aria-label/title, a <details> box, a table with a caption and merged header
 * cells, a same-origin iframe, and the usual weight of markup, styles and scripts around it.
 */
function newsArticle(n: number): string {
  const chromeLinks = Array.from(
    { length: 40 },
    (_, i) =>
      `<li class="menu__item menu__item--level-1"><a class="menu__link" href="/section/${i}" data-track="nav-${i}">Section ${i}</a></li>`,
  ).join('');
  const styles = `<style>${Array.from({ length: 60 }, (_, i) => `.c${i}{margin:${i}px;padding:${i}px;color:#${(i * 4111).toString(16).padStart(6, '0').slice(0, 6)}}`).join('')}</style>`;
  const tracking = `<script>window.dataLayer=[${Array.from({ length: 40 }, (_, i) => `{"event":"view","slot":${i},"id":"a${n}-${i}"}`).join(',')}];</script>`;
  const paras = Array.from(
    { length: 10 },
    (_, i) =>
      `<div class="article-body__block c${i}" data-block="${i}"><p class="article-body__paragraph">Paragraph ${i + 1} of story ${n} follows the council's budget vote, quoting residents on rents, buses and the library in district ${i + 1}.</p></div>`,
  ).join('');
  return html(
    `Council budget vote ${n}`,
    `<header class="site-header"><a href="/">The Daily Example</a><nav><ul class="menu">${chromeLinks}</ul></nav></header>
<div class="article-lead"><p class="standfirst">Standfirst ${n}: the council passed a budget of 81 million after a night-long session.</p><p class="byline">By Mara Lindqvist, city reporter</p></div>
<main><article><h1>Council passes budget ${n}</h1>
<p>Published <time datetime="2026-03-14" title="14 March 2026">yesterday</time>.</p>
${paras}
<p><a class="buy" href="/subscribe" aria-label="Subscribe for 4.99 euros a month"><span class="icon"></span></a>
<button type="button" aria-label="Next council meeting: 2 April 2026"><svg width="10" height="10"></svg></button></p>
<details><summary>How the vote went</summary><p>Details fact ${n}: 31 in favour, 12 against, 2 abstentions.</p></details>
<table><caption>Spending by area (millions)</caption>
<thead><tr><th rowspan="2">Area</th><th colspan="2">2025</th><th colspan="2">2026</th></tr>
<tr><th>Plan</th><th>Actual</th><th>Plan</th><th>Actual</th></tr></thead>
<tbody><tr><td>Transport</td><td>20</td><td>22</td><td>24</td><td>25</td></tr>
<tr><td>Libraries</td><td>5</td><td>4</td><td>6</td><td>6</td></tr></tbody></table>
<iframe src="/frame/${n}" title="Fact box" width="600" height="120"></iframe>
</article></main>
${tracking}${styles}
<footer class="site-footer"><p>Copyright 2026 The Daily Example.</p></footer>`,
  );
}

/** The 18 words of {@link storyLead}'s standfirst. */
export const STORY_LEAD =
  'Councillors backed the harbour plan on Tuesday, promising new ferry berths, cleaner water and cheaper mooring for fishers.';

/**
 * A story whose opening sits outside <main>, as real news sites lay it out: a story <header>
 * (kicker, headline, standfirst) above it, a byline and dateline in a rail shown beside it (a CSS
 * grid; first in the DOM), and between them a long "most read" block and an ad slot.
 */
function storyLead(): string {
  const mostRead = Array.from(
    { length: 12 },
    (_, i) =>
      `<li><a href="/story/${i}">Most read story number ${i + 1} about the town, the harbour and the weather this week</a></li>`,
  ).join('');
  const body = Array.from(
    { length: 20 },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the harbour story records what councillors, fishers and ferry operators said in the debate.</p>`,
  ).join('');
  return html(
    'Harbour plan approved | The Harbour Herald',
    `<header class="site-header"><a href="/">The Harbour Herald</a><nav><a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
<div class="story" style="display:grid;grid-template-columns:1fr 3fr">
<header class="story-header" style="grid-column:1 / span 2"><p class="kicker">Local politics</p><h1>Harbour plan approved</h1>
<p class="standfirst">${STORY_LEAD}</p></header>
<div class="story-rail"><p class="byline">By Ines Varga, harbour correspondent</p><p class="dateline">PORT ELLIS, 3 May 2026</p></div>
<div class="most-read"><h3>Most read</h3><ol>${mostRead}</ol></div>
<div class="ad-slot">Advertisement</div>
<div class="share-tools">Share: Email Facebook</div>
<main><article>${body}</article></main>
</div>
${FOOTER}`,
  );
}

const LATE = html(
  'Late text',
  `<p id="slot">Loading…</p><script>
addEventListener('load', () => setTimeout(() => {
  document.getElementById('slot').textContent = 'The late fact is aurora 7731, inserted after load.';
}, 150));
</script>`,
);

const SPA = html(
  'Catalogue',
  `<div id="app"></div><script>
const xhr = new XMLHttpRequest();
xhr.open('GET', '/api/products');
xhr.onload = () => {
  const items = JSON.parse(xhr.responseText);
  const app = document.getElementById('app');
  app.innerHTML = '<h1>Product catalogue</h1><table><thead><tr><th>Product</th><th>Price</th></tr></thead><tbody>' +
    items.map((p) => '<tr><td>' + p.name + '</td><td>' + p.price + '</td></tr>').join('') + '</tbody></table>';
};
xhr.send();
</script>`,
);

const TABLES = html(
  'Invoice 2026-114',
  `<h1>Invoice 2026-114</h1>
<table><caption>Line items</caption>
<thead><tr><th>Item</th><th>Qty</th><th>Unit price</th></tr></thead>
<tbody>
<tr><td>Blue widget</td><td>4</td><td>12.50</td></tr>
<tr><td>Red gadget | large</td><td>1</td><td>99.00</td></tr>
<tr><td colspan="2">Shipping</td><td>7.25</td></tr>
<tr><td rowspan="2">Service</td><td>2</td><td>40.00</td></tr>
<tr><td>3</td><td>45.00</td></tr>
</tbody><tfoot><tr><td colspan="2">Total</td><td>294.25</td></tr></tfoot></table>
<table role="presentation"><tr><td><p>Layout cell with payment terms: net 30 days.</p></td></tr></table>`,
);

const ATTACK = (canary: string, canaryHostPort: string): string =>
  html(
    'Attack page',
    `<p>Canary page fact: heron 4412.</p>
<img src="${canary}/img.png" alt="">
<img src="https://${canaryHostPort}/tls.png" alt="">
<img src="/bounce?to=${encodeURIComponent(`${canary}/bounced.png`)}" alt="">
<link rel="stylesheet" href="${canary}/style.css">
<link rel="preconnect" href="${canary}"><link rel="prefetch" href="${canary}/prefetch">
<iframe src="${canary}/frame.html"></iframe>
<script src="/bounce?to=${encodeURIComponent(`${canary}/script.js`)}"></script>
<script>
fetch('${canary}/fetch').catch(() => {});
fetch('http://localhost:${canaryHostPort.split(':')[1]}/fetch-by-name').catch(() => {});
try { new WebSocket('ws://${canaryHostPort}/ws'); } catch (e) {}
try { new WebSocket('wss://${canaryHostPort}/wss'); } catch (e) {}
try { new EventSource('${canary}/events'); } catch (e) {}
try { navigator.sendBeacon('${canary}/beacon', 'x'); } catch (e) {}
window.open('${canary}/popup');
setTimeout(() => { location.href = 'file:///etc/passwd'; }, 50);
</script>`,
    `<meta http-equiv="refresh" content="0;url=${canary}/meta-refresh">`,
  );

const LONG = html(
  'Handbook',
  Array.from(
    { length: 40 },
    (_, i) =>
      `<h2>Chapter ${i + 1}</h2><p>${`Chapter ${i + 1} explains procedure ${i + 1} in detail. `.repeat(12)}</p>`,
  ).join(''),
);

const NEVER = html(
  'Never finishes',
  '<p>Streaming fact: glacier 2093 arrived before the stall.</p>',
).replace('</body></html>', '');

const BUSY = html(
  'Busy page',
  `<h1>Busy page</h1><p>Busy fact: comet 5150 rendered before the loop.</p><script>for (;;) {}</script><p>After the loop.</p>`,
);

/** Overrides the builtins an extractor running in the page's own world would rely on. */
const TAMPER = html(
  'Tampered',
  `<p>Tamper fact: osprey 8128 survives prototype overrides.</p><script>
Array.prototype.join = function () { return 'HACKED'; };
String.prototype.replace = function () { return 'HACKED'; };
window.getComputedStyle = function () { return { display: 'none', visibility: 'hidden', position: 'static' }; };
Object.defineProperty(HTMLElement.prototype, 'innerText', { get() { return 'HACKED'; } });
</script>`,
);

/** Re-enters a long busy task from a timer, so one terminated script is not the end of it. */
const BUSY_TIMER = html(
  'Busy timer',
  `<p>Timer fact: meteor 6021 rendered before the loops.</p><script>
setInterval(() => { const t = Date.now(); while (Date.now() - t < 3000) {} }, 0);
</script>`,
);

/** Small distinct images so the screenshot of the images-only page is not a blank tile. */
async function bannerPng(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="700">
<rect width="1000" height="700" fill="hsl(${hue},60%,85%)"/>
<rect x="80" y="80" width="840" height="120" fill="hsl(${hue},60%,30%)"/>
<circle cx="500" cy="450" r="160" fill="hsl(${(hue + 120) % 360},70%,45%)"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function listen(server: http.Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** `port` fixes the site's port (a data set run from another shell needs to know it); 0 picks one. */
export async function startTestSite(options: { port?: number } = {}): Promise<TestSite> {
  const canary: CanaryCounts = { connections: 0, requests: 0, upgrades: 0, connects: 0 };
  const canaryServer = http.createServer((_req, res) => {
    canary.requests += 1;
    res.end('canary');
  });
  canaryServer.on('connection', () => (canary.connections += 1));
  canaryServer.on('upgrade', (_req, socket) => {
    canary.upgrades += 1;
    socket.destroy();
  });
  canaryServer.on('connect', (_req, socket) => {
    canary.connects += 1;
    socket.destroy();
  });
  const canaryPort = await listen(canaryServer);
  const canaryHostPort = `127.0.0.1:${canaryPort}`;
  const canaryOrigin = `http://${canaryHostPort}`;

  const images = await Promise.all([bannerPng(20), bannerPng(200), bannerPng(300)]);
  const open = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const send = (body: string | Buffer, type = 'text/html; charset=utf-8', status = 200): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (redirect) {
      const n = Number(redirect[1]);
      res.writeHead(302, { location: n >= 4 ? '/redirected-final' : `/redirect/${n + 1}` }).end();
      return;
    }
    const status = /^\/status\/(\d{3})$/.exec(url.pathname);
    if (status)
      return send(html('Error', `<p>Status page ${status[1]}</p>`), undefined, Number(status[1]));
    const image = /^\/img\/(\d)\.png$/.exec(url.pathname);
    if (image) return send(images[Number(image[1])] ?? Buffer.alloc(0), 'image/png');
    switch (url.pathname) {
      case '/article':
        return send(articlePage());
      case '/late':
        return send(LATE);
      case '/story-lead':
        return send(storyLead());
      case '/spa':
        return send(SPA);
      case '/api/products':
        setTimeout(
          () =>
            send(
              JSON.stringify([
                { name: 'Widget Alpha', price: '19.99' },
                { name: 'Gizmo Beta', price: '42.00' },
              ]),
              'application/json',
            ),
          300,
        );
        return;
      case '/tables':
        return send(TABLES);
      case '/images':
        return send(
          html(
            'Gallery',
            '<img src="/img/0.png" width="1000" height="700"><img src="/img/1.png"><img src="/img/2.png">',
          ),
        );
      case '/redirected-final':
        return send(
          html('Final stop', '<p>Redirect chain fact: lantern 3307 at the final hop.</p>'),
        );
      case '/redirect-to-canary':
        res.writeHead(302, { location: `${canaryOrigin}/main-redirect` }).end();
        return;
      case '/bounce':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
        return;
      case '/attack':
        return send(ATTACK(canaryOrigin, canaryHostPort));
      case '/never':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.write(NEVER);
        return; // deliberately never ended
      case '/busy':
        return send(BUSY);
      case '/tamper':
        return send(TAMPER);
      case '/busy-timer':
        return send(BUSY_TIMER);
      case '/js-redirect':
        return send(
          html(
            'Moving',
            '<p>Moving…</p><script>setTimeout(() => location.replace("/redirected-final"), 100)</script>',
          ),
        );
      case '/file.pdf':
        return send(Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf');
      case '/photo.png':
        return send(images[0] ?? Buffer.alloc(0), 'image/png');
      case '/long':
        return send(LONG);
      case '/news/1':
      case '/news/2':
      case '/news/3':
        return send(newsArticle(Number(url.pathname.slice(-1))));
      case '/frame/1':
      case '/frame/2':
      case '/frame/3':
        return send(
          html('Fact box', `<p>Iframe fact ${url.pathname.slice(-1)}: turnout was 64 percent.</p>`),
        );
      case '/blank':
        return send(html('', '<div></div>'));
      default:
        return send(html('Not found', '<p>No such page</p>'), undefined, 404);
    }
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  const port = await listen(server, options.port);
  const origin = `http://127.0.0.1:${port}`;

  const pages: FixturePage[] = [
    {
      path: '/article',
      content: true,
      facts: [
        '# Quarterly Report Q3',
        '**EUR 4.2 million**',
        '## Highlights',
        '- New customers: 312',
        '  - Enterprise churn: 0.4%',
        '3. Third step',
        '**Fiscal year**\n: Ends on 31 March',
        '> Best quarter in our history.',
        '```\ntotal = sum(invoices)\n```',
        `[full report](${origin}/full-report.html)`,
        `![Acme logo](${origin}/logo.png)`,
        'Paragraph 12 of the quarterly report',
      ],
    },
    ...[1, 2, 3].map((n) => ({
      path: `/news/${n}`,
      content: true,
      facts: [
        `# Council passes budget ${n}`,
        `Standfirst ${n}: the council passed a budget of 81 million`,
        'By Mara Lindqvist',
        '14 March 2026',
        '4.99 euros',
        '2 April 2026',
        `Details fact ${n}: 31 in favour`,
        '**Spending by area (millions)**',
        '| Area | 2025 Plan | 2025 Actual | 2026 Plan | 2026 Actual |',
        '| Transport | 20 | 22 | 24 | 25 |',
        `Iframe fact ${n}: turnout was 64 percent.`,
      ],
    })),
    {
      path: '/story-lead',
      content: true,
      facts: [
        '# Harbour plan approved',
        STORY_LEAD,
        'By Ines Varga, harbour correspondent',
        'PORT ELLIS, 3 May 2026',
        'Paragraph 20 of the harbour story',
      ],
    },
    { path: '/late', content: true, facts: ['The late fact is aurora 7731'] },
    {
      path: '/spa',
      content: true,
      facts: ['# Product catalogue', '| Widget Alpha | 19.99 |', '| Gizmo Beta | 42.00 |'],
    },
    {
      path: '/tables',
      content: true,
      facts: [
        '| Item | Qty | Unit price |',
        '| Blue widget | 4 | 12.50 |',
        '| Red gadget \\| large | 1 | 99.00 |',
        '| Shipping |  | 7.25 |',
        '| Service | 3 | 45.00 |',
        '| Total |  | 294.25 |',
        'net 30 days',
      ],
    },
    { path: '/redirect/1', content: true, facts: ['Redirect chain fact: lantern 3307'] },
    { path: '/attack', content: false, facts: ['Canary page fact: heron 4412'] },
    { path: '/never', content: false, facts: ['Streaming fact: glacier 2093'] },
    { path: '/busy', content: false, facts: ['Busy fact: comet 5150'] },
    { path: '/images', content: false, facts: [] },
  ];

  return {
    origin,
    hostPort: `127.0.0.1:${port}`,
    canaryOrigin,
    canary,
    pages,
    async close() {
      for (const socket of open) socket.destroy();
      canaryServer.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => server.close(resolve)),
        new Promise((resolve) => canaryServer.close(resolve)),
      ]);
    },
  };
}
