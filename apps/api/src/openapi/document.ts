/**
 * The OpenAPI 3.1 document served at /openapi.json, generated from the zod schemas that validate
 * requests and type responses (docs/api.md#operational-routes).
 *
 * Why zod-openapi: the repo is on zod 4, and zod-openapi renders each schema with zod 4's own
 * `z.toJSONSchema` (no second schema language, no monkey-patching), adding only what OpenAPI
 * needs on top (parameters from zod objects, response headers, components from `.meta({ id })`).
 * @asteasolutions/zod-to-openapi would need its own registry and `extendZodWithOpenApi`.
 */
import { isDeepStrictEqual } from 'node:util';
import { createDocument, createSchema, type CreateDocumentOptions } from 'zod-openapi';
import { z } from 'zod';
import { SOURCE_KINDS, SOURCE_TYPES, WebhookEventSchema } from '@xt/contract';
import { extractionPaths } from './extractions-paths.ts';
import { modelPaths } from './models-paths.ts';
import { opsPaths } from './ops-paths.ts';
import { reviewPaths } from './reviews-paths.ts';
import { schemaPaths } from './schemas-paths.ts';
import { webhookPaths } from './webhooks-paths.ts';

const signatureHeaders = z.object({
  'webhook-id': z.string().meta({ description: 'the event id' }),
  'webhook-timestamp': z.string().meta({ description: 'Unix seconds at sending' }),
  'webhook-signature': z
    .string()
    .meta({ description: '`v1,<base64 HMAC-SHA256>` over `<id>.<timestamp>.<body>`' }),
});

/**
 * What a source may be, in the summary, from the registry: the summary named three kinds long
 * after the service read seven.
 */
const SOURCES = `typed text, or by URL or upload ${SOURCE_TYPES.filter(
  (t) => t !== 'text' && t !== 'auto',
)
  .map((t) => {
    const { noun, inputs } = SOURCE_KINDS[t];
    return `${noun}${!inputs.upload ? ' (by URL)' : !inputs.url ? ' (by upload)' : ''}`;
  })
  .join(', ')}, or any of these recognised by content with type auto`;

const WEBHOOK_EVENT_REF = { $ref: '#/components/schemas/WebhookEvent' };

const event = (operationId: string, summary: string) => ({
  post: {
    operationId,
    summary,
    description:
      'Sent to each enabled endpoint subscribed to the event, at least once, signed following Standard Webhooks; retried for about a day until the endpoint answers 2xx (docs/webhooks.md).',
    requestParams: { header: signatureHeaders },
    requestBody: {
      required: true,
      content: { 'application/json': { schema: WEBHOOK_EVENT_REF } },
    },
    responses: { '2XX': { description: 'Received; any other answer is retried' } },
  },
});

/**
 * Request fields such as `type` and `schema_id` are a string piped into an enum or a UUID, so a
 * wrong value gets a worded 422 rather than a type error. In a request zod renders a pipe's
 * input (any string); the document shows what a valid value is: the pipe's output.
 */
const showPipedStrings: NonNullable<CreateDocumentOptions['override']> = ({
  jsonSchema,
  zodSchema,
  io,
}) => {
  const def = zodSchema._zod.def;
  if (io !== 'input' || def.type !== 'pipe') return;
  const { in: from, out: to } = def;
  if (from._zod.def.type !== 'string' || !['string', 'enum'].includes(to._zod.def.type)) return;
  const { $schema: _dialect, ...valid } = z.toJSONSchema(to, { io: 'input' });
  Object.assign(jsonSchema, valid);
};

/**
 * zod renders a file as `format: binary`, the OpenAPI 3.0 spelling; 3.1 describes raw bytes with
 * `contentMediaType`, which generators map to a Blob or a file rather than a string.
 */
const filesAsBytes: NonNullable<CreateDocumentOptions['override']> = ({
  jsonSchema,
  zodSchema,
}) => {
  if (zodSchema._zod.def.type !== 'file') return;
  delete jsonSchema.format;
  delete jsonSchema.contentEncoding;
  jsonSchema.contentMediaType = 'application/octet-stream';
};

const override: NonNullable<CreateDocumentOptions['override']> = (context) => {
  showPipedStrings(context);
  filesAsBytes(context);
};

/**
 * zod-openapi renders a request body as zod's *input* and an answer as its *output*; for one
 * record the two differ (only the output forbids extra fields), so a webhook event given as a
 * request body would get its own input copy of the extraction record beside the one GET
 * returns. The event is what the service sends, like an answer: it is rendered as output and
 * must reuse exactly the components the routes' answers use.
 */
function withWebhookEvent<T extends { components?: { schemas?: Record<string, unknown> } }>(
  doc: T,
): T {
  const { schema, components } = createSchema(WebhookEventSchema, {
    io: 'output',
    openapiVersion: '3.1.0',
  });
  const schemas = (doc.components!.schemas ??= {});
  if (!isDeepStrictEqual(schema, WEBHOOK_EVENT_REF))
    throw new Error('WebhookEvent must be a component (give it a .meta id)');
  for (const [name, rendered] of Object.entries(components)) {
    const existing = schemas[name];
    if (existing !== undefined && !isDeepStrictEqual(existing, rendered))
      throw new Error(`component ${name} differs between the webhook event and the answers`);
    schemas[name] = rendered;
  }
  return doc;
}

function build() {
  const doc = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Structured Data Extraction API',
        version: '1.0.0',
        description:
          'Define a schema, submit a source (' +
          SOURCES +
          '), get JSON shaped by the schema. Every route is also answered without `/v1`. API keys are made with `npm run keys` or on the dashboard, whose session-cookie routes (`/dashboard/api`) are not part of this API. The prose reference is docs/api.md in the repository.',
      },
      servers: [{ url: '/v1' }],
      security: [{ bearer: [] }],
      tags: [
        { name: 'Schemas', description: 'The output shapes extractions are made with' },
        {
          name: 'Extractions',
          description: 'A source read into JSON shaped by a schema; created, awaited, listed',
        },
        {
          name: 'Reviews',
          description: 'People checking and correcting extractions; corrections as test cases',
        },
        { name: 'Webhooks', description: 'Endpoints told when extractions finish or are reviewed' },
        { name: 'Models', description: 'The models an extraction may name, and what each can do' },
        { name: 'Operations', description: 'Outside /v1, without an API key' },
      ],
      paths: {
        ...schemaPaths,
        ...extractionPaths,
        ...reviewPaths,
        ...webhookPaths,
        ...modelPaths,
        ...opsPaths,
      },
      webhooks: {
        'extraction.completed': event('extractionCompleted', 'An extraction completed'),
        'extraction.failed': event('extractionFailed', 'An extraction failed'),
        'extraction.reviewed': event('extractionReviewed', 'An extraction was reviewed'),
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key, `sk_live_` + 32 base62 characters; scope `read` may only GET',
          },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN' },
          adminBasic: {
            type: 'http',
            scheme: 'basic',
            description: 'ADMIN_USER and ADMIN_PASSWORD',
          },
        },
      },
    },
    { override },
  );
  return withWebhookEvent(doc);
}

let built: ReturnType<typeof build> | undefined;

/** Built once, on first use: the schemas do not change while the process runs. */
export function openApiDocument(): ReturnType<typeof build> {
  built ??= build();
  return built;
}
