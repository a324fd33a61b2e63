/**
 * Finding "Label: value" lines in the text that reached the model: the label is the field's
 * name in words (`invoice_number` and `invoiceNumber` are "Invoice number"), nested fields
 * prefixed by their parent's ("Vendor name"). Markdown emphasis, list and table marks around
 * the line are ignored, and a definition list's "Label\n: value" counts too.
 */
export function labelWords(path: string[]): string[] {
  return path.flatMap((key) =>
    key
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .split(/[\s_-]+/)
      .filter(Boolean)
      .map((w) => w.toLowerCase()),
  );
}

export function findLabelled(lines: string[], path: string[]): string | undefined {
  const words = labelWords(path);
  if (words.length === 0) return undefined;
  const label = new RegExp(`^${words.map(escape).join('[\\s_-]+')}\\s*:\\s*(.*)$`, 'i');
  const bare = new RegExp(`^${words.map(escape).join('[\\s_-]+')}\\s*$`, 'i');
  for (const [i, raw] of lines.entries()) {
    const line = plain(raw);
    const match = label.exec(line);
    if (match && match[1]!.trim() !== '') return match[1]!.trim();
    const next = lines[i + 1];
    if (bare.test(line) && next !== undefined && /^\s*:\s/.test(next)) {
      return plain(next.replace(/^\s*:\s*/, ''));
    }
  }
  return undefined;
}

/**
 * The first level-one Markdown heading of the page's content. The webpage handler opens its
 * text with the document's <title> as a heading followed by a `URL:` line; that header block
 * names the document, not the page's heading, so it is passed over when a heading follows.
 */
export function firstHeading(lines: string[]): string | undefined {
  const headings = lines.flatMap((line, i) => {
    const match = /^#\s+(\S.*)$/.exec(line.trim());
    return match ? [{ text: match[1]!.trim(), header: /^URL:\s/.test(lines[i + 1] ?? '') }] : [];
  });
  return (headings.find((h) => !h.header) ?? headings[0])?.text;
}

/** A label line is no table row, whatever its shape. */
export function isLabelLine(line: string): boolean {
  return /^[^:|\t]{1,40}:\s+\S/.test(plain(line));
}

function plain(line: string): string {
  return line
    .trim()
    .replace(/^(?:[-*+]\s+|#+\s+|>\s+)/, '')
    .replaceAll('**', '')
    .replaceAll('__', '')
    .trim();
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
