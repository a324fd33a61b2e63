import type { Logger } from 'pino';
import { ExtractionFailure, type FormatName, type PreparedSource } from '@xt/contract';
import { xlsIsEncrypted } from '@xt/formats';
import { checkArchive, type ArchiveLimits } from '../archive/bounds.ts';
import type { PrepPool } from '../prep-pool/index.ts';

export interface SpreadsheetLimits {
  maxCells: number;
  archive: ArchiveLimits;
  /** LibreOffice's rewrite of a file as XLSX (the document converter, isolated). */
  convert: (bytes: Buffer, from: 'xls' | 'ods' | 'xlsx') => Promise<Buffer>;
}

/** Reads a spreadsheet file of a given format into model input (and, with citations, cells). */
export type SpreadsheetReader = (
  bytes: Buffer,
  format: FormatName,
  opts: { citations?: boolean | undefined },
) => Promise<PreparedSource>;

const passwordProtected = () =>
  new ExtractionFailure(
    'SOURCE_UNREADABLE',
    'The spreadsheet is password-protected (encrypted); it cannot be read without its password.',
  );

/** OpenDocument lists an encrypted part's key derivation in its manifest. */
const ODF_ENCRYPTED = /<(?:[\w-]+:)?encryption-data[\s/>]/;

/**
 * Spreadsheets on the main loop's side: refuses what cannot be read (a password-protected
 * file, whatever wraps it) before any work, has LibreOffice rewrite XLS and ODS (and XLSX that
 * ExcelJS cannot take apart) as XLSX, and hands the parsing to a prep process. Conversions are
 * the document converter's, under its bound on how many run at once (CONVERT_CONCURRENCY).
 */
export function createSpreadsheetReader(
  pool: PrepPool,
  limits: SpreadsheetLimits,
  logger: Logger,
): SpreadsheetReader {
  const { convert } = limits;

  const parse = (bytes: Buffer, format: 'xlsx' | 'csv' | 'tsv', citations: boolean) =>
    pool.runPrep({
      kind: 'spreadsheet',
      bytes,
      format,
      opts: { maxCells: limits.maxCells, archive: limits.archive, citations },
    });

  async function parseConverted(xlsx: Buffer, citations: boolean): Promise<PreparedSource> {
    const result = await parse(xlsx, 'xlsx', citations);
    if ('prepared' in result) return result.prepared;
    throw new ExtractionFailure(
      'SOURCE_UNREADABLE',
      `The spreadsheet cannot be read: ${result.unparsed}`,
    );
  }

  return async (bytes, format, { citations = false }) => {
    switch (format) {
      case 'office-encrypted':
        throw passwordProtected();
      case 'csv':
      case 'tsv': {
        const result = await parse(bytes, format, citations);
        if ('prepared' in result) return result.prepared;
        throw new ExtractionFailure('SOURCE_UNREADABLE', result.unparsed);
      }
      case 'xlsx': {
        // The thread takes the bytes it is given; a copy stays here in case LibreOffice is needed.
        const result = await parse(Buffer.from(bytes), 'xlsx', citations);
        if ('prepared' in result) return result.prepared;
        logger.info({ reason: result.unparsed }, 'xlsx rewritten by LibreOffice to be read');
        return parseConverted(await convert(bytes, 'xlsx'), citations);
      }
      case 'ods': {
        const { kept } = await checkArchive(bytes, 'spreadsheet', limits.archive, {
          keep: ['META-INF/manifest.xml'],
        });
        if (ODF_ENCRYPTED.test(kept.get('META-INF/manifest.xml') ?? '')) throw passwordProtected();
        return parseConverted(await convert(bytes, 'ods'), citations);
      }
      case 'xls':
        if (xlsIsEncrypted(bytes)) throw passwordProtected();
        return parseConverted(await convert(bytes, 'xls'), citations);
      default:
        throw new ExtractionFailure('SOURCE_UNSUPPORTED', `A ${format} file is not a spreadsheet.`);
    }
  };
}
