import path from 'node:path';
import type { SourceType } from './types.ts';

const IMAGE = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.tif', '.tiff', '.bmp']);
// What the service accepts as a `text` file upload (docs/uploads.md).
const TEXT = new Set(['.txt', '.md', '.markdown', '.csv', '.json', '.html', '.htm']);

/**
 * The source type a file name or URL suggests: `.pdf`, images, text files; any other URL is a
 * webpage; undefined for a file of another kind.
 */
export function sourceTypeFor(name: string, isUrl: boolean): SourceType | undefined {
  const ext = path.extname(isUrl ? new URL(name).pathname : name).toLowerCase();
  if (ext === '.pdf') return 'pdf';
  if (IMAGE.has(ext)) return 'image';
  if (isUrl) return 'webpage';
  return TEXT.has(ext) ? 'text' : undefined;
}
