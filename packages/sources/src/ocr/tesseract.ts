import { spawn } from 'node:child_process';
import type { GroundingLine } from '@xt/contract';

/** Where the page image came from and how long Tesseract may take over it. */
export interface OcrOptions {
  /** Tesseract is killed past this; the page then has no lines (its values stay unfound). */
  timeoutMs: number;
  /** The `tesseract` binary; found on PATH by default. */
  command?: string;
  /** Tesseract's `-l`: `+`-joined languages (OCR_LANGUAGES); its default, English, when absent. */
  languages?: string;
}

/**
 * The lines Tesseract reads in an image (PNG or JPEG bytes), in reading order, each with its
 * box as fractions of the image (top-left origin), for locating values on scanned pages
 * (docs/citations.md). Runs the `tesseract` CLI (Debian's tesseract-ocr, the standard engine)
 * on one core. A missing binary, a failure or the deadline gives no lines rather than failing
 * the extraction: values on that page are then reported as not found.
 */
export async function ocrLines(
  image: Buffer,
  size: { width: number; height: number },
  opts: OcrOptions,
  /** Tesseract's `--dpi`; absent, it assumes 70 for an image that declares none. */
  dpi?: number,
): Promise<GroundingLine[]> {
  const tsv = await runTesseract(image, opts, dpi).catch(() => '');
  return linesFromTsv(tsv, size);
}

function runTesseract(image: Buffer, opts: OcrOptions, dpi?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // psm 3: automatic page segmentation, so columns and blocks keep their own lines. Through
    // env(1), which passes the environment on with one addition: the prep pool already runs one
    // task per core, so Tesseract's OpenMP must not fan out over them all.
    const child = spawn(
      'env',
      [
        'OMP_THREAD_LIMIT=1',
        opts.command ?? 'tesseract',
        'stdin',
        'stdout',
        ...(opts.languages ? ['-l', opts.languages] : []),
        ...(dpi ? ['--dpi', String(dpi)] : []),
        '--psm',
        '3',
        'tsv',
      ],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(new Error(`tesseract ended with ${code ?? 'a signal'}`));
    });
    // A child killed early closes its stdin; the write error is the close above.
    child.stdin.on('error', () => undefined);
    child.stdin.end(image);
  });
}

/** A word of Tesseract's TSV: its text, its pixel box, and its confidence (0–100). */
interface TsvWord {
  text: string;
  box: [number, number, number, number];
  conf: number;
}

/**
 * Tesseract's TSV: one row per page, block, paragraph, line and word (level 1–5); words carry
 * their text, pixel box and confidence. Words are joined into their lines, a line's box is the
 * union of its words', and each word keeps its place in the line's text and its confidence, so
 * that a value found on OCR words can say how sure the reading was (docs/citations.md).
 */
export function linesFromTsv(
  tsv: string,
  size: { width: number; height: number },
): GroundingLine[] {
  const lines = new Map<string, TsvWord[]>();
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells[0] !== '5' || cells.length < 12) continue;
    const text = cells.slice(11).join('\t').trim();
    if (text === '') continue;
    const [left, top, width, height] = cells.slice(6, 10).map(Number) as [
      number,
      number,
      number,
      number,
    ];
    const key = cells.slice(1, 5).join('.');
    const box: TsvWord['box'] = [left, top, left + width, top + height];
    const word: TsvWord = { text, box, conf: Number(cells[10]) };
    const line = lines.get(key);
    if (line) line.push(word);
    else lines.set(key, [word]);
  }
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return [...lines.values()].map((words) => {
    const box = words.reduce<number[]>(
      (union, w) => [
        Math.min(union[0]!, w.box[0]),
        Math.min(union[1]!, w.box[1]),
        Math.max(union[2]!, w.box[2]),
        Math.max(union[3]!, w.box[3]),
      ],
      [...words[0]!.box],
    );
    const { text, starts } = joinWords(words.map((w) => w.text));
    return {
      text,
      box: [
        clamp(box[0]! / size.width),
        clamp(box[1]! / size.height),
        clamp(box[2]! / size.width),
        clamp(box[3]! / size.height),
      ],
      words: words.map((w, k) => ({
        start: starts[k]!,
        end: starts[k]! + w.text.length,
        // Tesseract writes -1 where it gives no figure: no figure is no confidence.
        confidence: Number.isFinite(w.conf) ? clamp(Math.round(w.conf * 10) / 1000) : 0,
      })),
    };
  });
}

/** Han, kana, Hangul and their punctuation and full-width forms: scripts written without spaces. */
const UNSPACED =
  /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/**
 * A line's words as written, and where each starts in it: Tesseract cuts Japanese and Chinese
 * into words (often one character each) that the text has no spaces between, and a value quoted
 * from it has none. Korean puts spaces between its words, which Tesseract reads as gaps wider
 * than within one.
 */
function joinWords(words: string[]): { text: string; starts: number[] } {
  let out = words[0] ?? '';
  const starts = [0];
  for (const word of words.slice(1)) {
    const before = out.at(-1) ?? '';
    const after = word[0] ?? '';
    const hangul = /[\uac00-\ud7af]/u;
    const joined =
      UNSPACED.test(before) && UNSPACED.test(after) && !(hangul.test(before) && hangul.test(after));
    if (!joined) out += ' ';
    starts.push(out.length);
    out += word;
  }
  return { text: out, starts };
}
