/** Node-side finishing of the Markdown the page produced: boilerplate, header and sections. */

export interface SectionOptions {
  /** A heading starts a new section once the current one has at least this many characters. */
  minSectionChars: number;
  /** No section grows beyond this; longer blocks are cut at line boundaries. */
  maxSectionChars: number;
}

export const DEFAULT_SECTIONS: SectionOptions = { minSectionChars: 600, maxSectionChars: 12_000 };

/** The line without its trailing spaces and tabs (a scan: `/[ \t]+$/gm` is quadratic in a run). */
function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return line.slice(0, end);
}

export function splitBlocks(markdown: string): string[] {
  return markdown
    .split(/\n{2,}/)
    .map((b) => b.split('\n').map(trimLineEnd).join('\n'))
    .filter((b) => b.trim() !== '');
}

/**
 * Drops blocks repeated three or more times (share bars, "read more" teasers, legal lines under
 * every card), keeping the first. Tables and code are exempt: identical rows there are data.
 */
export function dropRepeatedBlocks(blocks: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const b of blocks) counts.set(b, (counts.get(b) ?? 0) + 1);
  const seen = new Set<string>();
  return blocks.filter((b) => {
    if (b.startsWith('|') || b.startsWith('```') || (counts.get(b) ?? 0) < 3) return true;
    if (seen.has(b)) return false;
    seen.add(b);
    return true;
  });
}

export function documentHeader(title: string, url: string): string {
  return `${title ? `# ${title}\n` : ''}URL: ${url}`;
}

export function nonWhitespaceChars(text: string): number {
  return text.replace(/\s+/g, '').length;
}

/** Cuts one oversized block at line boundaries; table pieces repeat the header rows. */
function cutBlock(block: string, max: number): string[] {
  const lines = block.split('\n');
  const isTable = lines[0]?.startsWith('|') === true && lines[1]?.startsWith('| ---') === true;
  const header = isTable ? lines.slice(0, 2) : [];
  const body = isTable ? lines.slice(2) : lines;
  const pieces: string[] = [];
  let current: string[] = [...header];
  let size = header.join('\n').length;
  const flush = (): void => {
    if (current.length > header.length) pieces.push(current.join('\n'));
    current = [...header];
    size = header.join('\n').length;
  };
  for (const line of body) {
    // A single line longer than the limit (minified text) is cut at the limit.
    for (let i = 0; i < Math.max(1, line.length); i += max) {
      const part = line.slice(i, i + max);
      if (size + part.length + 1 > max && current.length > header.length) flush();
      current.push(part);
      size += part.length + 1;
    }
  }
  flush();
  return pieces;
}

/**
 * Groups blocks into sections that start at headings, so the long-document path can chunk a
 * page along its own structure. The header (title, URL) opens the first section.
 */
export function splitSections(
  header: string,
  blocks: readonly string[],
  opts: SectionOptions = DEFAULT_SECTIONS,
): string[] {
  const sections: string[] = [];
  let current: string[] = [header];
  let size = header.length;
  const flush = (): void => {
    if (current.length > 0) sections.push(current.join('\n\n'));
    current = [];
    size = 0;
  };
  for (const block of blocks) {
    const pieces =
      block.length > opts.maxSectionChars ? cutBlock(block, opts.maxSectionChars) : [block];
    for (const piece of pieces) {
      const startsSection = /^#{1,3} /.test(piece) && size >= opts.minSectionChars;
      if (startsSection || (size > 0 && size + piece.length + 2 > opts.maxSectionChars)) flush();
      current.push(piece);
      size += piece.length + 2;
    }
  }
  flush();
  return sections;
}
