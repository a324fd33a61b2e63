/**
 * What real pages carry around their content, generated deterministically: a stylesheet and an
 * app bundle inlined in the page, a hydration-state blob, inline SVG icons, a mega-menu, a
 * cookie banner and a long footer. Sizes follow what common CMS and shop front-ends send
 * (tens of KiB of markup around a few KiB of text), so raw-HTML token counts are realistic.
 */

function pseudoRandom(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

export function inlineCss(seed: number, rules = 260): string {
  const r = pseudoRandom(seed);
  const props = ['margin', 'padding', 'color', 'background', 'font-size', 'line-height', 'border'];
  const out: string[] = [];
  for (let i = 0; i < rules; i++) {
    const cls = `.c-${Math.floor(r() * 1e6).toString(36)}`;
    const body = props
      .filter(() => r() > 0.5)
      .map((p) => `${p}:${Math.floor(r() * 40)}px`)
      .join(';');
    out.push(`${cls}{${body}}`);
  }
  return `<style>${out.join('')}</style>`;
}

export function inlineBundle(seed: number, functions = 120): string {
  const r = pseudoRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < functions; i++) {
    const name = `f${Math.floor(r() * 1e8).toString(36)}`;
    out.push(
      `function ${name}(a,b){var c=a||{};if(c.t===${i})return b(c.v,"${name}");for(var k in c){c[k]=typeof c[k]==="string"?c[k].trim():c[k]}return c}`,
    );
  }
  return `<script>!function(){${out.join(';')};window.__boot=1}();</script>`;
}

/** A framework's serialized page state: the content again, plus configuration noise. */
export function hydrationState(props: unknown, seed: number): string {
  const r = pseudoRandom(seed);
  const flags = Object.fromEntries(
    Array.from({ length: 80 }, (_, i) => [`feature_${i}_${Math.floor(r() * 1e6)}`, r() > 0.5]),
  );
  return `<script id="__APP_STATE__" type="application/json">${JSON.stringify({
    props,
    flags,
    buildId: Math.floor(r() * 1e12).toString(36),
  })}</script>`;
}

const ICON = (d: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><path d="${d}"/></svg>`;
const ICON_PATHS = [
  'M3 12h18M3 6h18M3 18h18',
  'M21 21l-4.35-4.35M11 19a8 8 0 1 1 0-16 8 8 0 0 1 0 16z',
  'M6 2L3 6v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6l-3-4z',
  'M20.84 4.61a5.5 5.5 0 0 0-7.78 0L12 5.67l-1.06-1.06a5.5 5.5 0 0 0-7.78 7.78l1.06 1.06L12 21.23',
];

export function header(site: string): string {
  const sections = ['Shop', 'Brands', 'Deals', 'Journal', 'Help', 'Stores'];
  const menu = sections
    .map(
      (s, i) =>
        `<li class="nav-item c-${i}"><a href="/${s.toLowerCase()}">${ICON(ICON_PATHS[i % 4]!)}${s}</a><ul class="mega">${Array.from(
          { length: 10 },
          (_, j) =>
            `<li><a href="/${s.toLowerCase()}/${j}" data-track="nav_${i}_${j}">${s} category ${j + 1}</a></li>`,
        ).join('')}</ul></li>`,
    )
    .join('');
  return `<header class="site-header"><a class="logo" href="/">${site}</a><nav aria-label="Main"><ul>${menu}</ul></nav>
<form role="search"><input name="q" placeholder="Search ${site}">${ICON(ICON_PATHS[1]!)}</form></header>
<div class="cookie-banner" role="dialog">We and our 143 partners use cookies to personalise content and ads. <button>Accept all</button> <button>Manage choices</button></div>`;
}

export function footer(site: string): string {
  const columns = ['Company', 'Customer service', 'Legal', 'Follow us'];
  return `<footer class="site-footer">${columns
    .map(
      (c) =>
        `<section><h4>${c}</h4><ul>${Array.from({ length: 10 }, (_, j) => `<li><a href="/${c.replace(/\s/g, '-').toLowerCase()}/${j}">${c} link ${j + 1}</a></li>`).join('')}</ul></section>`,
    )
    .join('')}<p>© 2026 ${site}. All rights reserved. Prices include VAT.</p></footer>
<script async src="/assets/analytics.js"></script>`;
}

export function page(opts: {
  title: string;
  site: string;
  seed: number;
  main: string;
  state: unknown;
  head?: string;
  tail?: string;
}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${opts.title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/assets/site.css">
${inlineCss(opts.seed)}${opts.head ?? ''}</head><body>${header(opts.site)}<main>${opts.main}</main>${footer(opts.site)}
${hydrationState(opts.state, opts.seed)}${inlineBundle(opts.seed + 1)}${opts.tail ?? ''}</body></html>`;
}
