import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** Global the bundle defines in the page's isolated world; `snapshot` is called on it. */
const PAGE_GLOBAL = '__xtMarkdown';

/**
 * The extractor is ordinary modules (page-entry.ts and what it imports), bundled into one
 * self-contained script for the page. From sources the bundle is made at start-up (esbuild,
 * about 50 ms); a built worker reads the copy `npm run build` wrote beside its main file.
 */
export async function bundlePageScript(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./page-entry.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: PAGE_GLOBAL,
    platform: 'browser',
    target: 'chrome110',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]?.text;
  if (!text) throw new Error('esbuild produced no page script');
  return text;
}

let loading: Promise<string> | undefined;

/** The page script, made or read once per process. */
export function loadPageScript(): Promise<string> {
  loading ??= import.meta.url.endsWith('.ts')
    ? bundlePageScript()
    : readFile(new URL('./page-script.js', import.meta.url), 'utf8');
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** The expression handed to `Runtime.evaluate`: defines the bundle, then reads the page. */
export function snapshotExpression(script: string, maxChars: number): string {
  return `${script}\n${PAGE_GLOBAL}.snapshot(${JSON.stringify(maxChars)});`;
}
