import { createWalk } from './blocks.ts';
import type { ExtractEnv, PDocument, PElement, PNode } from './dom.ts';
import { leadOf } from './lead.ts';
import { collapse } from './text.ts';

export interface ExtractedMarkdown {
  title: string;
  /** The page body as Markdown blocks separated by blank lines (no title or URL header). */
  markdown: string;
}

/**
 * Turns a document into Markdown. The same code runs inside Chromium (bundled into the page,
 * see page-script.ts) and over HTML text parsed in Node (html.ts); `env` supplies what differs.
 */
export function extractMarkdown(
  doc: PDocument,
  env: ExtractEnv,
  maxChars: number,
): ExtractedMarkdown {
  const body = doc.body;
  const walk = createWalk(env, body, maxChars);
  const pickRoot = (): PNode | null => {
    if (!body) return null;
    // <main> is the author's own statement of where the content is; trust it when it holds
    // most of the text, so chrome that is not marked up as nav/aside still falls away.
    const main = body.querySelector('main, [role="main"]');
    if (
      main &&
      !walk.classify.gone(main) &&
      env.text(main).trim().length >= walk.classify.bodyChars * 0.5
    )
      return main;
    return body;
  };
  const blocks: string[] = [];
  const root = pickRoot();
  if (root && root !== body)
    for (const lead of leadOf(root as PElement, walk)) walk.renderBlock(lead, blocks);
  if (root) walk.renderChildren(root, blocks);
  const h1: PElement | null | undefined = body?.querySelector('h1');
  return {
    title: collapse(doc.title || (h1 ? env.text(h1) : '')).trim(),
    markdown: blocks.join('\n\n'),
  };
}
