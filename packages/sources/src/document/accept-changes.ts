import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import type { FormatName } from '@xt/contract';

/*
 * A document is read as it stands with its tracked changes accepted: deleted text is not the
 * document's text. LibreOffice lays tracked changes out as it shows them on opening (deletions
 * struck through, beside the insertions that replaced them), and no export option accepts
 * them: its PDF export draws whatever its view shows, and the view settings a file carries
 * (`w:revisionView`, ODF's `ShowChanges`) are read differently across versions and formats.
 * Rewriting the file's XML before conversion is the robust way: what is deleted is not in the
 * file LibreOffice opens, whatever it would do with it. DOC and RTF are not rewritten (their
 * changes are in binary records or control words): they are laid out as LibreOffice shows them.
 */

export interface AcceptedChanges {
  bytes: Uint8Array;
  /** Insertions, deletions and moves accepted (formatting changes not counted); 0: unchanged. */
  changes: number;
}

/** WordprocessingML elements dropped with what they hold: deleted text, formatting before. */
const DROPPED = new Set([
  'w:del',
  'w:moveFrom',
  'w:rPrChange',
  'w:pPrChange',
  'w:sectPrChange',
  'w:tblPrChange',
  'w:tblGridChange',
  'w:trPrChange',
  'w:tcPrChange',
  'w:numberingChange',
]);
/** Elements whose tags go and whose content stays: inserted and moved-here text. */
const UNWRAPPED = new Set(['w:ins', 'w:moveTo']);
/** Markers of a change with nothing to keep. */
const MARKERS = new Set([
  'w:moveFromRangeStart',
  'w:moveFromRangeEnd',
  'w:moveToRangeStart',
  'w:moveToRangeEnd',
  'w:cellIns',
  'w:cellDel',
]);
const COUNTED = new Set(['w:del', 'w:ins', 'w:moveFrom', 'w:moveTo']);

/** A start, end or empty-element tag (not `<?…?>`, `<!--…-->` or CDATA). */
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)(\s[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*)?(\/?)>/g;
/** What makes a paragraph more than its mark: text, a drawing, a break, section settings. */
const VISIBLE = /<w:(t|drawing|pict|object|sym|tab|br|sectPr)\b/;

/** One WordprocessingML part with its changes accepted, and how many there were. */
export function acceptWordChanges(xml: string): { xml: string; changes: number } {
  const out: string[] = [];
  const open: string[] = [];
  const rows: { at: number; deleted: boolean }[] = [];
  const paragraphs: { at: number; markDeleted: boolean }[] = [];
  let skip: { name: string; depth: number } | undefined;
  let changes = 0;
  let last = 0;
  for (const m of xml.matchAll(TAG)) {
    const [tag, closing, name = '', attributes = '', slash] = m;
    const empty = slash === '/' || attributes.endsWith('/');
    if (!skip) out.push(xml.slice(last, m.index));
    last = m.index + tag.length;
    if (skip) {
      if (name === skip.name && !empty) skip.depth += closing ? -1 : 1;
      if (skip.depth === 0) skip = undefined;
      continue;
    }
    if (closing) open.pop();
    else if (!empty) open.push(name);
    if (COUNTED.has(name) && !closing) changes++;
    if (DROPPED.has(name)) {
      if (empty) {
        const parent = open.at(-1);
        if (name === 'w:del' && parent === 'w:trPr' && rows.length) rows.at(-1)!.deleted = true;
        if (name === 'w:del' && parent === 'w:rPr' && open.at(-2) === 'w:pPr' && paragraphs.length)
          paragraphs.at(-1)!.markDeleted = true;
      } else {
        open.pop();
        skip = { name, depth: 1 };
      }
      continue;
    }
    if (UNWRAPPED.has(name) || MARKERS.has(name)) continue;
    if (name === 'w:tr' && !empty && !closing) rows.push({ at: out.length, deleted: false });
    if (name === 'w:p' && !empty && !closing)
      paragraphs.push({ at: out.length, markDeleted: false });
    if (name === 'w:tr' && closing) {
      const row = rows.pop();
      if (row?.deleted) {
        out.length = row.at;
        continue;
      }
    }
    if (name === 'w:p' && closing) {
      // A deleted paragraph mark joins the paragraph to the next; where its text was deleted
      // too (a whole paragraph deleted), nothing of it is left to keep.
      const p = paragraphs.pop();
      if (p?.markDeleted && !VISIBLE.test(out.slice(p.at).join(''))) {
        out.length = p.at;
        continue;
      }
    }
    out.push(tag);
  }
  if (!skip) out.push(xml.slice(last));
  return { xml: out.join(''), changes };
}

/** One OpenDocument part with its changes accepted: deleted text lives only in the regions. */
export function acceptOdfChanges(xml: string): { xml: string; changes: number } {
  const changes = xml.match(/<text:changed-region\b/g)?.length ?? 0;
  if (changes === 0) return { xml, changes };
  const accepted = xml
    .replace(/<text:tracked-changes\b[^>]*?(?:\/>|>[\s\S]*?<\/text:tracked-changes>)/g, '')
    .replace(/<text:change(?:-start|-end)?\b[^>]*?\/>/g, '');
  return { xml: accepted, changes };
}

const WORD_PARTS = /^word\/[^/]+\.xml$/;
const ODF_PARTS = new Set(['content.xml', 'styles.xml']);
/** Quick signs of a change, looked for before any part is rewritten. */
const WORD_SIGNS = /<w:(ins|del|moveFrom|moveTo)\b/;

/** Whether files of `format` may have changes this file accepts (DOCX and ODT). */
export function hasTrackedChanges(format: FormatName): boolean {
  return format === 'docx' || format === 'odt';
}

/**
 * A DOCX or ODT with its tracked changes accepted; any other format, or a file without
 * changes, as it is. The archive's bounds were checked before (checkArchive).
 */
export function acceptTrackedChanges(bytes: Uint8Array, format: FormatName): AcceptedChanges {
  if (!hasTrackedChanges(format)) return { bytes, changes: 0 };
  const isPart = (name: string) =>
    format === 'docx' ? WORD_PARTS.test(name) : ODF_PARTS.has(name);
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(bytes, { filter: (f) => isPart(f.name) });
  } catch {
    // A damaged archive is LibreOffice's to refuse or repair, as it would be unchanged.
    return { bytes, changes: 0 };
  }
  const rewritten: Record<string, Uint8Array> = {};
  let changes = 0;
  for (const [name, data] of Object.entries(parts)) {
    const xml = strFromU8(data);
    if (format === 'docx' && !WORD_SIGNS.test(xml)) continue;
    const accepted = format === 'docx' ? acceptWordChanges(xml) : acceptOdfChanges(xml);
    if (accepted.changes === 0 && accepted.xml === xml) continue;
    changes += accepted.changes;
    rewritten[name] = strToU8(accepted.xml);
  }
  if (Object.keys(rewritten).length === 0) return { bytes, changes: 0 };
  const all = unzipSync(bytes);
  const zipped: Zippable = {};
  // Entry order is kept: ODF's `mimetype` must stay first, and stored. This runs on the worker's
  // event loop, so the archive is written fast rather than small: pictures, most of a large
  // document's bytes and compressed already, are stored, and XML deflated at the lowest level.
  for (const [name, data] of Object.entries(all)) {
    const level = /\.(xml|rels)$/.test(name) ? 1 : 0;
    zipped[name] = [rewritten[name] ?? data, { level }];
  }
  return { bytes: zipSync(zipped), changes };
}
