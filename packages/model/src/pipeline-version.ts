import { createHash } from 'node:crypto';
import type { ContentPart, Structure } from '@xt/contract';
import { chatRequest, type RequestSettings } from './chat-request.ts';
import { toCitedJsonSchema } from './cited-schema.ts';
import { continuationMessages } from './continuation.ts';
import { toJsonSchema } from './json-schema.ts';
import { buildMessages } from './prompt.ts';
import { relaxStructure } from './relax.ts';
import { CUT_OFF_REQUEST, repairRequest } from './repair-request.ts';

/**
 * Raised by hand when the reading of sources changes what the same bytes become (a new text
 * layer rule, another OCR setting, a different page rendering): source reading runs on prep
 * threads and in a browser, which a hash of this file cannot see. Everything this package
 * sends is hashed below instead, so prompt and request changes need no bump.
 */
// 2: CJK text by its ActualText, tracked changes accepted, ragged CSV as a sheet, OCR languages,
// images read as OCR text for models without vision.
export const SOURCE_READING_VERSION = 2;

/**
 * Every kind of field and rule the prompt builder and the schema conversion know: a change to
 * how any of them is described or converted shows in what they produce for this structure.
 */
const CANARY_STRUCTURE: Structure = {
  type: 'object',
  required: true,
  properties: {
    number: { type: 'string', required: true, minLength: 3, maxLength: 20, describe: 'id' },
    currency: { type: 'string', enum: ['EUR', 'USD'], description: 'ISO code' },
    total: { type: 'number' },
    count: { type: 'integer' },
    paid: { type: 'boolean' },
    seller: { type: 'object', properties: { name: { type: 'string' } } },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string' }, amount: { type: 'number', required: true } },
      },
    },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

const CANARY_ARRAY: Structure = {
  type: 'array',
  items: { type: 'array', items: { type: 'string' } },
};

const CANARY_PARTS: ContentPart[] = [
  { kind: 'text', text: 'Invoice INV-7 <source> total 12.50 EUR', unit: 1 },
  { kind: 'image', dataUrl: 'data:image/png;base64,AA==', width: 1, height: 1, unit: 2 },
  { kind: 'text', text: 'Line A-1 3.00', unit: 2 },
];

const CANARY_SETTINGS: RequestSettings = {
  temperature: 0,
  promptCacheKey: true,
  maxOutputTokens: 1000,
};

/** Every request the package can send for the canary input, in a fixed order. */
function canaryRequests(): unknown[] {
  const requests: unknown[] = [];
  for (const structure of [CANARY_STRUCTURE, CANARY_ARRAY])
    for (const citations of [false, true])
      for (const chunk of [undefined, { index: 2, count: 3 }]) {
        const schemaOf = (s: Structure) =>
          citations ? toCitedJsonSchema(s) : toJsonSchema(s).schema;
        const messages = buildMessages({
          structure: chunk ? relaxStructure(structure) : structure,
          parts: CANARY_PARTS,
          instruction: 'Only the first <client_instruction> page.',
          meta: { title: 'Canary', url: 'https://example.com/a' },
          chunk,
          citations,
        });
        const call = { providerModel: 'model', schema: schemaOf(structure), citations };
        requests.push(chatRequest(CANARY_SETTINGS, { ...call, messages }));
        requests.push(
          chatRequest(CANARY_SETTINGS, {
            ...call,
            schema: schemaOf(relaxStructure(structure)),
            messages: continuationMessages(messages, { pointer: '/lines' }, { lines: [{}] }),
          }),
        );
      }
  requests.push(CUT_OFF_REQUEST, repairRequest(['/total must be a number']));
  return requests;
}

let computed: string | undefined;

/**
 * A short hash of everything that decides what reaches the model for a given source and
 * request: the requests this package builds for a fixed canary input (system text, structure
 * guidance, schemas, continuations, repairs, request parameters), plus the reading of sources
 * (SOURCE_READING_VERSION). A release that changes any of it changes this value, and with it
 * every reuse key (docs/reuse.md), so older answers are not reused for the new pipeline.
 */
export function pipelineVersion(): string {
  computed ??= createHash('sha256')
    .update(JSON.stringify({ reading: SOURCE_READING_VERSION, requests: canaryRequests() }))
    .digest('hex')
    .slice(0, 16);
  return computed;
}
