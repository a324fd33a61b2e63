/**
 * The OpenAPI 3.1 document served at /openapi.json, generated from the zod schemas that validate
 * requests and type responses (docs/api.md#operational-routes).
 *
 * Why zod-openapi: the repo is on zod 4, and zod-openapi renders each schema with zod 4's own
 * `z.toJSONSchema` (no second schema language, no monkey-patching), adding only what OpenAPI
 * needs on top (parameters from zod objects, response headers, components from `.meta({ id })`).
 * @asteasolutions/zod-to-openapi would need its own registry and `extendZodWithOpenApi`.
 */
import { createDocument, type CreateDocumentOptions } from 'zod-openapi';
import { z } from 'zod';
import { WebhookEventSchema } from '@xt/contract';
import { ErrorBody, ValidationErrorBody } from '../http/response-schemas.ts';
import { extractionPaths } from './extractions-paths.ts';
import { opsPaths } from './ops-paths.ts';
import { schemaPaths } from './schemas-paths.ts';
import { webhookPaths } from './webhooks-paths.ts';

const signatureHeaders = z.object({
  'webhook-id': z.string().meta({ description: 'the event id' }),
  'webhook-timestamp': z.string().meta({ description: 'Unix seconds at sending' }),
  'webhook-signature': z
    .string()
    .meta({ description: '`v1,<base64 HMAC-SHA256>` over `<id>.<timestamp>.<body>`' }),
});

const event = (summary: string) => ({
  post: {
    summary,
    description:
      'Sent to each enabled endpoint subscribed to the event, at least once, signed following Standard Webhooks; retried for about a day until the endpoint answers 2xx (docs/webhooks.md).',
    requestParams: { header: signatureHeaders },
    requestBody: {
      required: true,
      content: { 'application/json': { schema: WebhookEventSchema } },
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

function build() {
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Structured Data Extraction API',
        version: '1.0.0',
        description:
          'Define a schema, submit a source (text, a URL or an upload of an image, PDF or webpage), get JSON shaped by the schema. Every route is also answered without `/v1`. API keys are made with `npm run keys` or on the dashboard, whose session-cookie routes (`/dashboard/api`) are not part of this API. The prose reference is docs/api.md in the repository.',
      },
      servers: [{ url: '/v1' }],
      security: [{ bearer: [] }],
      tags: [
        { name: 'Schemas' },
        { name: 'Extractions' },
        { name: 'Webhooks' },
        { name: 'Operations', description: 'Outside /v1, without an API key' },
      ],
      paths: { ...schemaPaths, ...extractionPaths, ...webhookPaths, ...opsPaths },
      webhooks: {
        'extraction.completed': event('An extraction completed'),
        'extraction.failed': event('An extraction failed'),
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
        schemas: { ErrorBody, ValidationErrorBody },
      },
    },
    { override: showPipedStrings },
  );
}

let built: ReturnType<typeof build> | undefined;

/** Built once, on first use: the schemas do not change while the process runs. */
export function openApiDocument(): ReturnType<typeof build> {
  built ??= build();
  return built;
}
