/**
 * What splitting a bundle adds to the API's records (docs/split.md), as far as the pages use it.
 * Declared here until the SDK carries it; the shape is the one the API serialises.
 */
import type { ExtractionListRecord, ExtractionRecord } from '../types.ts';

export interface SplitClass {
  name: string;
  description?: string;
  schema_id?: string;
}

export interface SplitSpec {
  classes: SplitClass[];
  other: boolean;
}

export interface PageRange {
  from: number;
  to: number;
}

/** A parent carries `split` (and no schema); a child `parentId` and its pages of the bundle. */
interface SplitFields {
  split?: SplitSpec | null;
  parentId?: string | null;
  pages?: PageRange | null;
}

export type SplitRecord = Omit<ExtractionRecord, 'schemaId'> & {
  schemaId: string | null;
} & SplitFields;

export type SplitListRecord = Omit<ExtractionListRecord, 'input'> & {
  input: Omit<ExtractionListRecord['input'], 'schema_id'> & {
    schema_id: string | null;
    split?: SplitSpec | null;
  };
} & Omit<SplitFields, 'split'>;
