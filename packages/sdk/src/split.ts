/**
 * `split()`: a bundle cut into its documents and each document's extraction, waited for the way
 * `extract()` waits (docs/split.md). The bundle completes only once every document's extraction
 * is final, so one wait on it is enough; the documents' records are then read once each.
 */
import type { ExtractionParamsBase } from './create-params.ts';
import { ApiError, XtError } from './errors.ts';
import { runPool } from './pool.ts';
import { splitTypeFor, type SplitSourceType } from './source-type.ts';
import type { SplitClass, SplitDocument, SplitInput, SplitResult } from './bundle-types.ts';
import type { Extraction } from './types.ts';
import type { Upload } from './uploads.ts';

export interface SplitParams extends Omit<ExtractionParamsBase, 'type' | 'source'> {
  /** 1 to 20 kinds of document the bundle may hold; a class without `schema_id` is only classified */
  classes: SplitClass[];
  /** pages of no class become documents of class `other`, never extracted. Default true. */
  other?: boolean;
  /** Default: `pdf`, `image` or `document` by the file's or URL's name, else `auto`. */
  type?: SplitSourceType;
}

/** A document of the bundle with its own extraction's record. */
export interface SplitDocumentRecord extends SplitDocument {
  /**
   * The record of `extractionId` (final: completed or failed); null when the class names no
   * schema, for `other`, and for a document whose extraction was deleted since.
   */
  extraction: Extraction | null;
}

export interface SplitOutcome {
  /** The bundle's own record: `split` as created, `result.documents` as below. */
  parent: Extraction;
  /** In page order, covering every page once. */
  documents: SplitDocumentRecord[];
}

/** Records read at once: a bundle of many documents should not queue behind one slow read. */
const READS_AT_ONCE = 4;

/** The create of a bundle: the type from its name unless given, the split from the classes. */
export function splitCreate(source: string | Upload, params: SplitParams) {
  const { classes, other, type, ...rest } = params;
  const split: SplitInput = { classes, ...(other === undefined ? {} : { other }) };
  return { ...rest, type: type ?? typeOf(source), source, split };
}

function typeOf(source: string | Upload): SplitSourceType {
  // A string that is no URL is refused by the service (a bundle is a file), naming `source`.
  if (typeof source === 'string') return URL.canParse(source) ? splitTypeFor(source, true) : 'auto';
  return splitTypeFor(('path' in source ? source.path : source.filename) ?? '', false);
}

/** Each document of a completed bundle with its extraction's record, read `READS_AT_ONCE` at a time. */
export async function splitOutcome(
  parent: Extraction,
  read: (id: string) => Promise<Extraction>,
): Promise<SplitOutcome> {
  const documents = (parent.result as SplitResult | null)?.documents;
  if (parent.split === undefined || !documents)
    throw new XtError(`extraction ${parent.id} is not a completed bundle: it has no documents`);
  const records = new Map<string, Extraction | null>();
  const ids = documents.flatMap((d) => (d.extractionId === null ? [] : [d.extractionId]));
  await runPool(ids, READS_AT_ONCE, async (id) => {
    // Deleting one document's extraction alone is allowed; the bundle still names it.
    records.set(id, await read(id).catch(orNullOn404));
  });
  return {
    parent,
    documents: documents.map((d) => ({
      ...d,
      extraction: d.extractionId === null ? null : (records.get(d.extractionId) ?? null),
    })),
  };
}

function orNullOn404(error: unknown): null {
  if (error instanceof ApiError && error.status === 404) return null;
  throw error;
}
