/**
 * Build step (`npm run build`): writes the in-page Markdown extractor as one script beside the
 * bundled worker, which reads it at start-up instead of bundling it again.
 */
import { writeFile } from 'node:fs/promises';
import { bundlePageScript } from '@xt/sources/page-script';

const out = process.argv[2] ?? 'dist/page-script.js';
await writeFile(out, await bundlePageScript());
