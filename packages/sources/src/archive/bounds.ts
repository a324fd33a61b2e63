import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ExtractionFailure } from '@xt/contract';

/*
 * Office files (XLSX, DOCX, PPTX, ODF) are ZIP archives, and a ZIP archive is the classic
 * expansion bomb: 50 KB that inflate to gigabytes. Before any parser sees one, its central
 * directory is read and its entries inflated once, counted and thrown away, with yauzl
 * (maintained, no dependencies, and it checks every entry inflates to exactly the size its
 * directory declares, so a lying directory is caught too). The bounds:
 * - the number of entries, from the directory, before anything is inflated;
 * - the expanded size of all entries together, from the directory, then as inflated;
 * - each large entry's expansion ratio (deflate reaches about 1,000:1 on repeated bytes; real
 *   documents rarely pass 100:1).
 * Parsers that load the whole archive at once (ExcelJS) then work on what was measured.
 */

export interface ArchiveLimits {
  /** Bytes all entries expand to together, at most. */
  maxExpandedBytes: number;
  /** Entries at most. */
  maxEntries: number;
  /** Expanded ÷ compressed size of an entry larger than RATIO_GRACE_BYTES, at most. */
  maxRatio: number;
}

/** Entries smaller than this expanded are never refused for their ratio (a page of blanks). */
const RATIO_GRACE_BYTES = 1024 * 1024;
/** Entries read whole for the caller (a manifest) are at most this large. */
const KEPT_MAX_BYTES = 1024 * 1024;

export interface ArchiveInspection {
  /** Entries whose elements named `element` (any namespace prefix) are counted, at most `max`. */
  count?: { entries: RegExp; element: string; max: number; tooMany: () => ExtractionFailure };
  /** Small entries to return as text (a manifest), by exact name or by a pattern of names. */
  keep?: readonly string[] | RegExp;
}

export interface ArchiveReport {
  entries: number;
  expandedBytes: number;
  /** Elements counted in the `count` entries. */
  counted: number;
  /** The `keep` entries found, as UTF-8 text. */
  kept: Map<string, string>;
  /** The `keep` entries found but too large to keep (over 1 MiB expanded): present, unread. */
  notKept: Set<string>;
}

const tooLarge = (message: string) => new ExtractionFailure('SOURCE_TOO_LARGE', message);
const unreadable = (what: string, detail: string) =>
  new ExtractionFailure('SOURCE_UNREADABLE', `The ${what} is not a readable archive: ${detail}.`);

/** The end-of-central-directory record: its signature, its size before the comment. */
const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const EOCD_BYTES = 22;

/**
 * The archive ending where its end record says: some files carry bytes after it that its
 * comment length does not cover (a real PowerPoint file of the corpus ends in a stray newline),
 * and some declare a comment they leave out. PowerPoint, Word and LibreOffice open both, yauzl
 * refuses both; the comment means nothing, so the extra bytes are left off (no copy) and missing
 * ones supplied as zeros. Any other archive is returned as it is.
 */
function endingAsDeclared(bytes: Buffer): Buffer {
  // The last record that fits, as yauzl finds it: a comment is at most 65,535 bytes.
  const at = bytes.lastIndexOf(EOCD, bytes.length - EOCD_BYTES);
  if (at === -1 || at < bytes.length - EOCD_BYTES - 0xffff) return bytes;
  const end = at + EOCD_BYTES + bytes.readUInt16LE(at + 20);
  if (end < bytes.length) return bytes.subarray(0, end);
  return end > bytes.length ? Buffer.concat([bytes, Buffer.alloc(end - bytes.length)]) : bytes;
}

function open(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      endingAsDeclared(bytes),
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true },
      (err, zip) => (err ? reject(err) : resolve(zip)),
    );
  });
}

/**
 * Counts `<element` start tags (with or without a namespace prefix) in a stream of XML, across
 * chunk boundaries: `<c `, `<c>`, `<c/>` and `<x:c ` count for `c`; `<col` and `<cfRule` do not.
 */
export function elementCounter(element: string): (chunk: string) => number {
  let carry = '';
  const tag = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${element}[\\s/>]`, 'g');
  return (chunk) => {
    const text = carry + chunk;
    let n = 0;
    let last = 0;
    // The carried tail holds no whole match (one would have been found and carried past), so
    // every match here is new.
    for (const m of text.matchAll(tag)) {
      n++;
      last = m.index + m[0].length;
    }
    // A tag cut by the chunk's end is completed by the next one; 64 characters cover any prefix.
    carry = text.slice(Math.max(last, text.length - 64));
    return n;
  };
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream)));
  });
}

/**
 * Checks a ZIP archive against `limits` before it is parsed, inflating each entry once without
 * keeping it. Fails with SOURCE_TOO_LARGE past a bound, SOURCE_UNREADABLE for an archive that
 * is not one (or whose entries are encrypted or do not match its directory). `what` names the
 * file in messages ("spreadsheet").
 */
export async function checkArchive(
  bytes: Buffer,
  what: string,
  limits: ArchiveLimits,
  inspect: ArchiveInspection = {},
): Promise<ArchiveReport> {
  let zip: yauzl.ZipFile;
  try {
    zip = await open(bytes);
  } catch (err) {
    throw unreadable(what, err instanceof Error ? err.message : String(err));
  }
  const report: ArchiveReport = {
    entries: 0,
    expandedBytes: 0,
    counted: 0,
    kept: new Map(),
    notKept: new Set(),
  };
  try {
    if (zip.entryCount > limits.maxEntries)
      throw tooLarge(
        `The ${what} is an archive of ${zip.entryCount.toLocaleString('en')} entries; at most ${limits.maxEntries.toLocaleString('en')} are accepted (MAX_ARCHIVE_ENTRIES).`,
      );
    const entries: yauzl.Entry[] = await new Promise((resolve, reject) => {
      const found: yauzl.Entry[] = [];
      let declared = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        declared += entry.uncompressedSize;
        if (declared > limits.maxExpandedBytes) {
          reject(expandsPast(what, limits));
          return;
        }
        if (
          entry.uncompressedSize > RATIO_GRACE_BYTES &&
          entry.uncompressedSize > limits.maxRatio * Math.max(1, entry.compressedSize)
        ) {
          reject(
            tooLarge(
              `The ${what} is an archive whose entry ${JSON.stringify(entry.fileName)} expands ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times; at most ${limits.maxRatio} times is accepted (MAX_ARCHIVE_RATIO).`,
            ),
          );
          return;
        }
        found.push(entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve(found));
      zip.on('error', reject);
      zip.readEntry();
    });
    report.entries = entries.length;
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      await inflate(zip, entry, what, limits, inspect, report);
    }
    return report;
  } catch (err) {
    if (err instanceof ExtractionFailure) throw err;
    throw unreadable(what, err instanceof Error ? err.message : String(err));
  } finally {
    zip.close();
  }
}

function expandsPast(what: string, limits: ArchiveLimits): ExtractionFailure {
  return tooLarge(
    `The ${what} is an archive that expands to more than ${Math.round(limits.maxExpandedBytes / (1024 * 1024))} MiB; at most that is accepted (MAX_ARCHIVE_EXPANDED_BYTES).`,
  );
}

async function inflate(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  what: string,
  limits: ArchiveLimits,
  inspect: ArchiveInspection,
  report: ArchiveReport,
): Promise<void> {
  if (entry.isEncrypted())
    throw new ExtractionFailure(
      'SOURCE_UNREADABLE',
      `The ${what} is password-protected (its archive is encrypted); it cannot be read without the password.`,
    );
  const count =
    inspect.count && inspect.count.entries.test(entry.fileName) ? inspect.count : undefined;
  const named =
    inspect.keep instanceof RegExp
      ? inspect.keep.test(entry.fileName)
      : (inspect.keep?.includes(entry.fileName) ?? false);
  const keep = named && entry.uncompressedSize <= KEPT_MAX_BYTES;
  if (named && !keep) report.notKept.add(entry.fileName);
  const counter = count ? elementCounter(count.element) : undefined;
  const decoder = counter || keep ? new TextDecoder('utf-8') : undefined;
  let text = '';
  const stream = await entryStream(zip, entry);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    report.expandedBytes += chunk.length;
    if (report.expandedBytes > limits.maxExpandedBytes) {
      stream.destroy();
      throw expandsPast(what, limits);
    }
    if (!decoder) continue;
    const piece = decoder.decode(chunk, { stream: true });
    if (keep) text += piece;
    if (counter && count) {
      report.counted += counter(piece);
      if (report.counted > count.max) {
        stream.destroy();
        throw count.tooMany();
      }
    }
  }
  if (keep) report.kept.set(entry.fileName, text + (decoder?.decode() ?? ''));
}
