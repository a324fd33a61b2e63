/**
 * 7. Tokens (run as a child process): what the worker sends the model for the local corpus
 * (webpages through the renderer, PDFs through the PDF preparation) against a naive baseline
 * (the raw HTML; every PDF page as a full-resolution image), and the share of each item's
 * written facts still present in the text sent. Text is counted with gpt-tokenizer's o200k_base
 * (gpt-4.1's encoding); images with OpenAI's published formula for the model. Prints `RESULT`.
 */
import { countTokens } from 'gpt-tokenizer';
import type { PublicModel } from '@xt/contract';
import { visionTokens, preparePdf } from '@xt/sources';
import { CORPUS_PAGES, pageHtml, startCorpusServer } from '../corpus/pages.ts';
import { corpusPdfs } from '../corpus/pdfs.ts';
import { emitResult, progress } from '../lib/child.ts';
import { workerRenderer } from '../lib/renderer.ts';

const MODEL: PublicModel = 'gpt-4.1';

interface Part {
  kind: string;
  text?: string;
  width?: number;
  height?: number;
}

function sent(parts: readonly Part[]): { tokens: number; text: string } {
  let tokens = 0;
  const texts: string[] = [];
  for (const part of parts) {
    if (part.kind === 'text' && part.text !== undefined) {
      tokens += countTokens(part.text);
      texts.push(part.text);
    } else if (part.kind === 'image' && part.width && part.height) {
      tokens += visionTokens(MODEL, { width: part.width, height: part.height });
    }
  }
  return { tokens, text: texts.join('\n') };
}

export interface TokenItem {
  name: string;
  kind: 'webpage' | 'pdf';
  sentTokens: number;
  naiveTokens: number;
  facts: number;
  present: number;
  missing: string[];
}

const items: TokenItem[] = [];
const site = await startCorpusServer();
const renderer = workerRenderer(site.hostPort);
try {
  for (const page of CORPUS_PAGES) {
    progress(`§7 ${page.kind} page`);
    const out = await renderer.render(`${site.origin}${page.path}`, { model: MODEL });
    const { tokens, text } = sent(out.parts);
    const missing = page.facts.filter((f) => !text.includes(f));
    items.push({
      name: `${page.kind} page`,
      kind: 'webpage',
      sentTokens: tokens,
      naiveTokens: countTokens(pageHtml(page.path)),
      facts: page.facts.length,
      present: page.facts.length - missing.length,
      missing,
    });
  }
  for (const pdf of await corpusPdfs()) {
    progress(`§7 ${pdf.name}`);
    const prepared = await preparePdf(pdf.bytes, {
      model: MODEL,
      mode: 'auto',
      maxPages: 1000,
      maxImagePages: 100,
      maxImagePixels: 50_000_000,
    });
    const { tokens, text } = sent(prepared.parts);
    // Naive: each page rendered at 200 dpi (a "full-resolution" scan) and sent as an image.
    const full = { width: Math.round((612 / 72) * 200), height: Math.round((792 / 72) * 200) };
    const missing = pdf.facts.filter((f) => !text.includes(f));
    items.push({
      name: pdf.name,
      kind: 'pdf',
      sentTokens: tokens,
      naiveTokens: pdf.pages * visionTokens(MODEL, full),
      facts: pdf.facts.length,
      present: pdf.facts.length - missing.length,
      missing,
    });
  }
  emitResult({ items, model: MODEL });
} finally {
  await renderer.close();
  await site.close();
}
