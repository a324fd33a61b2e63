/*
 * The wire types of splitting a bundle (docs/split.md): as in types.ts, declared rather than
 * imported from `@xt/contract`, and held to it by `apps/api/src/sdk/contract-types.test.ts`.
 */

/** Pages of a bundle, numbered from 1, both ends included. */
export interface SplitPages {
  from: number;
  to: number;
}

/** One kind of document a bundle may hold (docs/split.md). */
export interface SplitClass {
  /** 1–64 letters, digits, `_`, `-` or spaces, unique case-insensitively; not `other` */
  name: string;
  /** what such a document is, in words, for the classification */
  description?: string;
  /** the schema each document of the class is extracted with; none: classified only */
  schema_id?: string;
}

/** `split` on create: cut a bundle into its documents instead of extracting it whole. */
export interface SplitInput {
  /** 1 to 20 classes */
  classes: SplitClass[];
  /** pages of no class become documents of class `other` (never extracted). Default true. */
  other?: boolean;
}

/** The split as a bundle's record echoes it. */
export interface SplitRequest {
  classes: SplitClass[];
  other: boolean;
}

/** One document of a completed bundle, in page order. */
export interface SplitDocument {
  /** a class's name, or `other` */
  class: string;
  pages: SplitPages;
  /** the lowest of its pages' classification confidences, 0–1 */
  confidence: number;
  /** the document's own extraction; null when its class names no schema (or is `other`) */
  extractionId: string | null;
}

/** A completed bundle's `result` (`output` on list records). */
export interface SplitResult {
  documents: SplitDocument[];
}
