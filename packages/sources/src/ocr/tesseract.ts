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
): Promise<GroundingLine[]> {
  const tsv = await runTesseract(image, opts).catch(() => '');
  return linesFromTsv(tsv, size);
}

function runTesseract(image: Buffer, opts: OcrOptions): Promise<string> {
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

/**
 * Tesseract's TSV: one row per page, block, paragraph, line and word (level 1–5); words carry
 * their text and pixel box. Words are joined into their lines, and a line's box is the union
 * of its words'.
 */
export function linesFromTsv(
  tsv: string,
  size: { width: number; height: number },
): GroundingLine[] {
  const lines = new Map<string, { words: string[]; box: [number, number, number, number] }>();
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
    const line = lines.get(key);
    const box: [number, number, number, number] = [left, top, left + width, top + height];
    if (!line) {
      lines.set(key, { words: [text], box });
      continue;
    }
    line.words.push(text);
    line.box = [
      Math.min(line.box[0], box[0]),
      Math.min(line.box[1], box[1]),
      Math.max(line.box[2], box[2]),
      Math.max(line.box[3], box[3]),
    ];
  }
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return [...lines.values()].map(({ words, box }) => ({
    text: joinWords(words),
    box: [
      clamp(box[0] / size.width),
      clamp(box[1] / size.height),
      clamp(box[2] / size.width),
      clamp(box[3] / size.height),
    ],
  }));
}

/** Han, kana, Hangul and their punctuation and full-width forms: scripts written without spaces. */
const UNSPACED =
  /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/**
 * A line's words as written: Tesseract cuts Japanese and Chinese into words (often one
 * character each) that the text has no spaces between, and a value quoted from it has none.
 * Korean puts spaces between its words, which Tesseract reads as gaps wider than within one.
 */
function joinWords(words: string[]): string {
  let out = words[0] ?? '';
  for (const word of words.slice(1)) {
    const before = out.at(-1) ?? '';
    const after = word[0] ?? '';
    const hangul = /[\uac00-\ud7af]/u;
    const joined =
      UNSPACED.test(before) && UNSPACED.test(after) && !(hangul.test(before) && hangul.test(after));
    out += joined ? word : ` ${word}`;
  }
  return out;
}
