/**
 * The fixed local set the webpage and token sections use: an article, a product page and a
 * table page, each with the facts (exact strings) a faithful extraction must still contain.
 * The product page loads its stock level with fetch() after the document, so a renderer that
 * does not wait for the network to go quiet misses a fact.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { page } from './site-chrome.ts';

export interface CorpusPage {
  path: string;
  kind: 'article' | 'product' | 'table';
  facts: string[];
}

const ARTICLE_PARAGRAPHS = [
  'The harbour authority of Port Elsby approved a new tidal barrier on Tuesday, ending a decade of debate about how to protect the old town from winter storms.',
  'The barrier will cost 412 million euros and is due to be completed in 2031, according to the authority chair, Miriam Okafor.',
  'Engineers from the Delft consortium said the design closes within 38 minutes when a surge warning is issued.',
  'Local fishermen, who had opposed earlier plans, welcomed a clause that keeps the north channel open for boats under 24 metres.',
  'Insurance premiums in the flood zone rose by 17 percent last year, a figure the council cited when it backed the project.',
  'Construction is expected to employ about 650 people at its peak, most of them hired through the regional training college.',
  'Critics argue the money would be better spent on relocating the most exposed homes, of which the council counts 1,140.',
  'The authority will publish the tender documents on 3 March, and bids close eight weeks later.',
];

function article(): { html: string; facts: string[] } {
  const paragraphs = ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('\n');
  const related = Array.from(
    { length: 8 },
    (_, i) =>
      `<li><a href="/news/${i}"><img src="/assets/thumb-${i}.jpg" alt="">Related story ${i + 1}: council budget update</a></li>`,
  ).join('');
  const comments = Array.from(
    { length: 6 },
    (_, i) =>
      `<li class="comment"><b>reader${i}</b> <time>2 h ago</time><p>Comment ${i + 1} on the barrier plan.</p><button>Reply</button> <button>Report</button></li>`,
  ).join('');
  return {
    html: page({
      title: 'Port Elsby approves tidal barrier',
      site: 'Coastal Herald',
      seed: 11,
      main: `<article><nav class="breadcrumbs"><a href="/">Home</a> › <a href="/news">News</a> › <a href="/news/local">Local</a></nav>
<h1>Port Elsby approves 412 million euro tidal barrier</h1><p class="byline">By Tomas Varga · 14 February 2026 · 4 min read</p>
<div class="share"><button>Share</button><button>Save</button></div>
${paragraphs}
<blockquote>“This is the most important decision this harbour has taken in fifty years,” said Miriam Okafor.</blockquote>
<div class="ad" data-slot="mid-article">Advertisement</div>
</article><aside><h3>Most read</h3><ul>${related}</ul></aside><section class="comments"><h3>Comments (6)</h3><ul>${comments}</ul></section>`,
      state: {
        article: { id: 88123, paragraphs: ARTICLE_PARAGRAPHS, tags: ['harbour', 'climate'] },
      },
    }),
    facts: [
      'Port Elsby approves 412 million euro tidal barrier',
      'Tomas Varga',
      '14 February 2026',
      'completed in 2031',
      'Miriam Okafor',
      'closes within 38 minutes',
      'boats under 24 metres',
      'rose by 17 percent',
      'about 650 people',
      '1,140',
      'on 3 March',
    ],
  };
}

function product(): { html: string; facts: string[] } {
  const specs: [string, string][] = [
    ['Model number', 'KX-4410'],
    ['Capacity', '1.7 litres'],
    ['Power', '2200 W'],
    ['Weight', '1.3 kg'],
    ['Warranty', '3 years'],
  ];
  const reviews = Array.from(
    { length: 5 },
    (_, i) =>
      `<li class="review"><span class="stars" aria-label="${5 - (i % 2)} stars">★★★★${i % 2 ? '' : '★'}</span><p>Review ${i + 1}: boils fast and quietly.</p><small>Verified buyer</small></li>`,
  ).join('');
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'Kettlex Pro 4410 Glass Kettle',
    sku: 'KX-4410',
    offers: { '@type': 'Offer', price: '79.90', priceCurrency: 'EUR' },
  };
  return {
    html: page({
      title: 'Kettlex Pro 4410 Glass Kettle',
      site: 'HomeGoods',
      seed: 23,
      head: `<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>`,
      main: `<nav class="breadcrumbs"><a href="/">Home</a> › <a href="/kitchen">Kitchen</a> › <a href="/kitchen/kettles">Kettles</a></nav>
<div class="gallery">${Array.from({ length: 5 }, (_, i) => `<img src="/assets/kettle-${i}.jpg" alt="Kettle view ${i + 1}">`).join('')}</div>
<h1>Kettlex Pro 4410 Glass Kettle</h1><p class="price">€79.90 <s>€99.00</s></p>
<p id="stock">Checking stock…</p>
<p>A borosilicate glass kettle with a blue LED ring and automatic shut-off.</p>
<table class="specs">${specs.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</table>
<section><h2>Customer reviews</h2><p>Rated 4.6 out of 5 by 212 customers.</p><ul>${reviews}</ul></section>
<section class="recommendations"><h2>Customers also bought</h2>${Array.from({ length: 8 }, (_, i) => `<a href="/p/${i}"><img src="/assets/rec-${i}.jpg" alt="">Mug set ${i + 1} €${(9.9 + i).toFixed(2)}</a>`).join('')}</section>`,
      state: { product: jsonLd, inventoryEndpoint: '/api/stock' },
      tail: `<script>fetch('/api/stock').then(r=>r.json()).then(s=>{document.getElementById('stock').textContent='In stock: '+s.units+' units, ships in '+s.days+' days'})</script>`,
    }),
    facts: [
      'Kettlex Pro 4410 Glass Kettle',
      '79.90',
      'KX-4410',
      '1.7 litres',
      '2200 W',
      '3 years',
      'Rated 4.6 out of 5 by 212 customers',
      'In stock: 14 units',
    ],
  };
}

const COUNTRIES: [string, string, string, string][] = [
  ['Norway', 'Oslo', '5,550,203', '385,207'],
  ['Sweden', 'Stockholm', '10,551,707', '450,295'],
  ['Finland', 'Helsinki', '5,603,851', '338,455'],
  ['Denmark', 'Copenhagen', '5,946,952', '42,933'],
  ['Iceland', 'Reykjavík', '393,600', '103,000'],
  ['Estonia', 'Tallinn', '1,374,687', '45,335'],
  ['Latvia', 'Riga', '1,871,882', '64,589'],
  ['Lithuania', 'Vilnius', '2,885,891', '65,300'],
  ['Ireland', 'Dublin', '5,281,600', '70,273'],
  ['Portugal', 'Lisbon', '10,639,726', '92,212'],
  ['Austria', 'Vienna', '9,158,750', '83,879'],
  ['Slovenia', 'Ljubljana', '2,123,949', '20,271'],
];

function table(): { html: string; facts: string[] } {
  const rows = COUNTRIES.map(
    ([c, cap, pop, area]) =>
      `<tr><td><a href="/c/${c.toLowerCase()}">${c}</a></td><td>${cap}</td><td class="num">${pop}</td><td class="num">${area}</td></tr>`,
  ).join('');
  return {
    html: page({
      title: 'European countries by population',
      site: 'DataAtlas',
      seed: 37,
      main: `<h1>European countries by population and area</h1><p>Figures as of 1 January 2025, from national statistics offices.</p>
<div class="table-tools"><button>Download CSV</button><button>Embed</button><select><option>All regions</option><option>Nordic</option></select></div>
<table class="data"><thead><tr><th>Country</th><th>Capital</th><th>Population</th><th>Area (km²)</th></tr></thead><tbody>${rows}</tbody></table>
<p class="source">Source: DataAtlas compilation, table 4.2.</p>`,
      state: { table: COUNTRIES },
    }),
    facts: [
      'Figures as of 1 January 2025',
      ...COUNTRIES.flatMap(([c, cap, pop]) => [c, cap, pop]),
      '385,207',
      '20,271',
    ],
  };
}

const BUILT = { '/article': article(), '/product': product(), '/table': table() };

export const CORPUS_PAGES: CorpusPage[] = [
  { path: '/article', kind: 'article', facts: BUILT['/article'].facts },
  { path: '/product', kind: 'product', facts: BUILT['/product'].facts },
  { path: '/table', kind: 'table', facts: BUILT['/table'].facts },
];

export function pageHtml(path: string): string {
  return BUILT[path as keyof typeof BUILT].html;
}

// A 1×1 grey JPEG is enough: the pages' images matter for requests, not for pixels.
const TINY_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** Serves the corpus on 127.0.0.1, with the assets each page asks for (small, a little slow). */
export async function startCorpusServer(): Promise<{
  origin: string;
  hostPort: string;
  close(): Promise<void>;
}> {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://corpus').pathname;
    const send = (type: string, body: string | Buffer, delayMs = 0) =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
        res.end(body);
      }, delayMs);
    if (path in BUILT) send('text/html; charset=utf-8', pageHtml(path));
    else if (path === '/api/stock')
      send('application/json', JSON.stringify({ units: 14, days: 2 }), 120);
    else if (path.endsWith('.css')) send('text/css', 'body{font-family:sans-serif}', 20);
    else if (path.endsWith('.js')) send('text/javascript', 'window.__analytics=1;', 40);
    else if (path.endsWith('.jpg')) send('image/jpeg', TINY_JPEG, 10);
    else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
