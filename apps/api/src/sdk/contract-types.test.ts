/**
 * The SDK declares the wire types itself, so its published `.d.ts` files need neither zod nor
 * the contract package. This file holds them to what the service actually serialises: if a
 * serializer gains, loses or retypes a field, `npm run typecheck` fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as contract from '@xt/contract';
import {
  EXTRACTION_PRIORITIES,
  FORMATS,
  RECORD_SOURCE_TYPES,
  SOURCE_KINDS,
  SOURCE_TYPES,
  autoKindFor,
  type FormatName,
} from '@xt/contract';
import { SOURCE_TYPES as SDK_SOURCE_TYPES, sourceTypeFor, splitTypeFor } from '@xt/sdk';
import type { serializeListRecord, serializeSingleRecord } from '@xt/contract';
import type * as sdk from '@xt/sdk';
import type { ExtractionCompleted } from '../extractions/response.ts';
import type { ModelInfo } from '../models/response.ts';
import type { serializeSchema } from '../schemas/serialize.ts';
import type { Conversion, Suggestion } from '../schemas/suggest/response.ts';
import type { serializeAttempt, serializeEndpointWithSecret } from '../webhooks/serialize.ts';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Same keys, and every value the service produces fits the SDK's type. */
type Fits<Sdk, Service> =
  Equal<keyof Sdk, keyof Service> extends true ? ([Service] extends [Sdk] ? true : false) : false;

// Where the service's type is looser than what it sends (`source.type` widened to string,
// `json` / `text[]` / `text` columns), the key sets are still held equal and the rest must fit.
type ServiceSingle = ReturnType<typeof serializeSingleRecord>;
type ServiceSchema = ReturnType<typeof serializeSchema>;
type ServiceEndpoint = ReturnType<typeof serializeEndpointWithSecret>;
type ServiceAttempt = ReturnType<typeof serializeAttempt>;

/** Each entry must be `true`; a `false` is a compile error naming the drifted type. */
const checks: {
  statuses: Equal<sdk.ExtractionStatus, contract.ExtractionStatus>;
  sourceTypes: Equal<sdk.SourceType, contract.SourceType>;
  models: Equal<sdk.PublicModel, contract.PublicModel>;
  priorities: Equal<sdk.ExtractionPriority, contract.ExtractionPriority>;
  failureCodes: Equal<sdk.FailureCode, contract.FailureCode>;
  eventTypes: Equal<sdk.WebhookEventType, contract.WebhookEventType>;
  deliveryStatuses: Equal<sdk.WebhookDeliveryStatus, contract.WebhookDeliveryStatus>;
  fieldDefinition: Equal<sdk.FieldDefinition, contract.FieldDefinition>;
  structure: Equal<sdk.Structure, contract.Structure>;
  fieldError: Equal<sdk.FieldError, contract.FieldError>;
  meta: Equal<sdk.PaginationMeta, contract.PaginationMeta>;
  uploadedFile: Equal<sdk.UploadedFile, contract.UploadedFile>;
  single: Fits<Omit<sdk.Extraction, 'source'>, Omit<ServiceSingle, 'source'>>;
  singleSource: Equal<keyof sdk.Extraction['source'], keyof ServiceSingle['source']>;
  singleBack: [sdk.Extraction] extends [ReturnType<typeof serializeSingleRecord>] ? true : false;
  list: Fits<sdk.ExtractionListItem, ReturnType<typeof serializeListRecord>>;
  listBack: [sdk.ExtractionListItem] extends [ReturnType<typeof serializeListRecord>]
    ? true
    : false;
  completed: Fits<Omit<sdk.ExtractionOutcome, 'status'>, Omit<ExtractionCompleted, 'status'>>;
  schemaKeys: Equal<keyof sdk.Schema, keyof ServiceSchema>;
  schema: Fits<Omit<sdk.Schema, 'structure'>, Omit<ServiceSchema, 'structure'>>;
  endpointKeys: Equal<keyof sdk.WebhookEndpointWithSecret, keyof ServiceEndpoint>;
  endpoint: [Omit<ServiceEndpoint, 'events' | 'secret'>] extends [
    Omit<sdk.WebhookEndpoint, 'events'>,
  ]
    ? true
    : false;
  attemptKeys: Equal<keyof sdk.WebhookDelivery, keyof ServiceAttempt>;
  attempt: Fits<Omit<sdk.WebhookDelivery, 'type'>, Omit<ServiceAttempt, 'type'>>;
  model: Equal<sdk.Model, ModelInfo>;
  suggestion: Fits<Omit<sdk.SchemaSuggestion, 'structure'>, Omit<Suggestion, 'structure'>>;
  conversion: Fits<Omit<sdk.SchemaConversion, 'structure'>, Omit<Conversion, 'structure'>>;
  splitClass: Equal<sdk.SplitClass, contract.SplitClass>;
  splitRequest: Equal<sdk.SplitRequest, contract.SplitRequest>;
  splitPages: Equal<sdk.SplitPages, contract.SplitPages>;
  splitResult: Equal<sdk.SplitResult, contract.SplitResult>;
} = {
  statuses: true,
  sourceTypes: true,
  models: true,
  priorities: true,
  failureCodes: true,
  eventTypes: true,
  deliveryStatuses: true,
  fieldDefinition: true,
  structure: true,
  fieldError: true,
  meta: true,
  uploadedFile: true,
  single: true,
  singleSource: true,
  singleBack: true,
  list: true,
  listBack: true,
  completed: true,
  schemaKeys: true,
  schema: true,
  endpointKeys: true,
  endpoint: true,
  attemptKeys: true,
  attempt: true,
  model: true,
  suggestion: true,
  conversion: true,
  splitClass: true,
  splitRequest: true,
  splitPages: true,
  splitResult: true,
};

describe('SDK wire types', () => {
  it('match what the service serialises (checked by typecheck)', () => {
    expect(Object.values(checks).every(Boolean)).toBe(true);
  });
});

/*
 * The registry of source kinds (docs/sources.md) is the service's; the SDK (and through it the
 * MCP server and the CLI) and the Python client keep copies, held to it here.
 */
describe('copies of the source-kind registry', () => {
  it('the SDK lists every type in the same order', () => {
    expect(SDK_SOURCE_TYPES).toEqual(SOURCE_TYPES);
  });

  it("the SDK guesses each format's type from its extensions as `auto` reads it", () => {
    for (const format of Object.keys(FORMATS) as FormatName[]) {
      const kind = autoKindFor(format, 'upload');
      for (const extension of FORMATS[format].extensions) {
        expect(sourceTypeFor(`file${extension}`, false), extension).toBe(kind);
        const byUrl = kind && SOURCE_KINDS[kind].inputs.url ? kind : 'webpage';
        expect(sourceTypeFor(`https://example.com/file${extension}`, true), extension).toBe(byUrl);
      }
    }
  });

  it("the Python client sends a bundle as the SDK's splitTypeFor does", () => {
    const client = readFileSync(
      new URL('../../../../clients/python/src/xt_sdk/client.py', import.meta.url),
      'utf8',
    );
    const python = new Map<string, string>();
    for (const [, list, type] of client.matchAll(/dict\.fromkeys\(\s*\[([^\]]*)\],\s*"(\w+)"/g))
      for (const [, ext] of list!.matchAll(/"([^"]+)"/g)) python.set(ext!, type!);
    expect(python.size).toBeGreaterThan(20);
    const extensions = new Set([
      ...python.keys(),
      ...Object.values(FORMATS).flatMap((f) => [...f.extensions]),
    ]);
    for (const extension of extensions)
      expect(python.get(extension) ?? 'auto', extension).toBe(
        splitTypeFor(`bundle${extension}`, false),
      );
  });

  it('the Python client types the same values', () => {
    const types = readFileSync(
      new URL('../../../../clients/python/src/xt_sdk/types.py', import.meta.url),
      'utf8',
    );
    // The kinds are a file written from the registry (scripts/kinds/copies.ts), which types.py uses.
    const kinds = readFileSync(
      new URL('../../../../clients/python/src/xt_sdk/_source_kinds.py', import.meta.url),
      'utf8',
    );
    const literal = (pattern: RegExp, text = types) =>
      [...(pattern.exec(text)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    expect(literal(/^SourceType = Literal\[([^\]]*)\]/m, kinds)).toEqual(SOURCE_TYPES);
    expect(literal(/^RecordSourceType = Literal\[([^\]]*)\]/m, kinds)).toEqual(RECORD_SOURCE_TYPES);
    expect(literal(/^Priority = Literal\[([^\]]*)\]/m)).toEqual(EXTRACTION_PRIORITIES);
    expect(types).toMatch(/class ExtractionSource\(.*\):\n\s+type: RecordSourceType\n/);
  });
});

describe('the Python client', () => {
  it('types `progress` as both records carry it while processing', () => {
    const types = readFileSync(
      new URL('../../../../clients/python/src/xt_sdk/types.py', import.meta.url),
      'utf8',
    );
    const start = types.indexOf('class Progress(TypedDict):');
    const body = types.slice(start, types.indexOf('\n\n\n', start)).split('\n');
    const keys = body.flatMap((line) => /^ {4}(\w+): int$/.exec(line)?.[1] ?? []);
    const service: (keyof NonNullable<contract.SingleRecord['progress']>)[] = [
      'pagesDone',
      'pagesTotal',
    ];
    expect(keys).toEqual(service);
    expect(types).toMatch(/^ {4}progress: Progress$/m);
  });
});
