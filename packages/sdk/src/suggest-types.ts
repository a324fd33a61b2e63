/** What schema suggestion and JSON Schema import answer (docs/api.md#suggest-a-schema). */
import type { Citations, ExtractionWarning, Structure, UploadedFile } from './types.ts';

/** Which of a draft's fields one sample gave a value for (docs/api.md#suggest-a-schema). */
export interface FieldsFound {
  found: string[];
  missing: string[];
  /** found / all of the draft's fields, 0 to 1 */
  share: number;
}

/** What `POST /schemas/suggest` answers: a draft structure and its run on each sample. */
export interface SchemaSuggestion {
  /** the suggestion; its extractions name it as `schema_id` */
  id: string;
  /** `schemas.create()` takes it as it is */
  structure: Structure;
  samples: {
    file: UploadedFile;
    /** the draft run on this sample */
    extractionId: string;
    output: unknown;
    citations?: Citations;
    warnings?: ExtractionWarning[];
    fields: FieldsFound;
  }[];
  /** charged as the extractions listed: drafting and draft runs */
  usage: { extractions: string[]; totalTokens: number; costUsd: number };
}

/** What `POST /schemas/convert` answers (docs/api.md#import-a-json-schema). */
export interface SchemaConversion {
  structure: Structure;
  /** what could not be kept: a JSON Pointer into the JSON Schema sent, and why */
  dropped: { path: string; reason: string }[];
}
