/**
 * PDFs made the way people make them, for tests that check where citations point: a table
 * document laid out and exported by LibreOffice, and where poppler's `pdftotext -bbox` (not the
 * pdf.js the worker reads with) says each word was drawn.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A flat OpenDocument text: paragraphs, then one table (its first row the header). */
function flatOdt(paragraphs: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (text: string) =>
    `<table:table-cell office:value-type="string"><text:p>${escapeXml(text)}</text:p></table:table-cell>`;
  const columns = rows[0]?.length ?? 0;
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
  office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text>
${paragraphs.map((p) => `<text:p>${escapeXml(p)}</text:p>`).join('\n')}
<table:table table:name="Statement">
<table:table-column table:number-columns-repeated="${columns}"/>
${rows.map((r) => `<table:table-row>${r.map(cell).join('')}</table:table-row>`).join('\n')}
</table:table>
</office:text></office:body></office:document>
`;
}

/** The document exported to PDF by LibreOffice (`soffice`, with a profile of its own). */
export async function officeTablePdf(
  paragraphs: readonly string[],
  rows: readonly (readonly string[])[],
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'xt-office-'));
  try {
    const source = path.join(dir, 'statement.fodt');
    await writeFile(source, flatOdt(paragraphs, rows));
    await run(
      'soffice',
      [
        `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
        '--headless',
        '--norestore',
        '--convert-to',
        'pdf',
        '--outdir',
        dir,
        source,
      ],
      { timeout: 180_000 },
    );
    return await readFile(path.join(dir, 'statement.pdf'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A word of the PDF's first page: its text and box, fractions of the page, origin top left. */
export interface PlacedWord {
  text: string;
  box: [number, number, number, number];
}

const PAGE = /<page width="([\d.]+)" height="([\d.]+)">/;
const WORD =
  /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;

/** Every word of the first page, as poppler reads the PDF. */
export async function pageWords(pdf: Buffer): Promise<PlacedWord[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'xt-bbox-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-bbox', '-f', '1', '-l', '1', file, '-'], {
      timeout: 60_000,
    });
    const page = PAGE.exec(stdout);
    if (!page) throw new Error('pdftotext -bbox printed no page');
    const [width, height] = [Number(page[1]), Number(page[2])];
    return [...stdout.matchAll(WORD)].map((m) => ({
      text: m[5]!.replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>'),
      box: [
        Number(m[1]) / width,
        Number(m[2]) / height,
        Number(m[3]) / width,
        Number(m[4]) / height,
      ],
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
