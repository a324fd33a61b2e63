/**
 * The OpenAPI description served at /openapi.json. Written by hand from interface.md and
 * contract.md; the integration tests check that every route the app serves is listed here.
 */
const errorBody = {
  type: 'object',
  required: ['status', 'message'],
  properties: {
    status: { type: 'boolean', const: false },
    message: { type: 'string' },
    code: { type: 'string', description: 'stable UPPER_SNAKE machine-readable code' },
    extractionId: { type: 'string', format: 'uuid' },
  },
};
const validationBody = {
  type: 'object',
  required: ['status', 'errors'],
  properties: {
    status: { type: 'boolean', const: false },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
    code: { type: 'string' },
  },
};
const ok = (data: object) => ({
  type: 'object',
  required: ['status', 'message', 'data'],
  properties: { status: { type: 'boolean', const: true }, message: { type: 'string' }, data },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const errors = {
  '401': { description: 'Missing, invalid or revoked API key', content: json(errorBody) },
  '403': { description: 'Read-only key on a mutating route', content: json(errorBody) },
  '404': { description: 'Unknown id, or an id of another account', content: json(errorBody) },
  '422': {
    description: 'Validation failed; one entry per invalid field',
    content: json(validationBody),
  },
  '429': { description: 'Too many requests; see Retry-After', content: json(errorBody) },
  '500': { description: 'Unexpected error', content: json(errorBody) },
};
const listParams = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
  },
  {
    name: 'startDate',
    in: 'query',
    schema: { type: 'string', format: 'date' },
    description: 'inclusive, UTC day',
  },
  {
    name: 'endDate',
    in: 'query',
    schema: { type: 'string', format: 'date' },
    description: 'inclusive, UTC day',
  },
  {
    name: 'search',
    in: 'query',
    schema: { type: 'string' },
    description: 'case-insensitive substring',
  },
];
const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
};
const paginated = (item: string) =>
  ok({
    type: 'object',
    properties: { data: { type: 'array', items: ref(item) }, meta: ref('Meta') },
  });
const schemaBody = {
  type: 'object',
  required: ['name', 'structure'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    description: { type: ['string', 'null'], maxLength: 2000 },
    structure: ref('Structure'),
  },
};
const extractionForm = {
  type: 'object',
  required: ['schema_id', 'type', 'source'],
  properties: {
    schema_id: { type: 'string', format: 'uuid' },
    type: { type: 'string', enum: ['text', 'image', 'pdf', 'webpage'] },
    source: {
      type: 'string',
      description: 'the text itself, or an http(s) URL for image, pdf and webpage',
    },
    model: { type: 'string', enum: ['gpt-4.1', 'gpt-4.1-mini'], default: 'gpt-4.1' },
    instruction: { type: 'string', maxLength: 4000 },
    metadata: ref('Metadata'),
  },
};

export const openApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Structured Data Extraction API', version: '1.0.0' },
  servers: [{ url: '/v1' }],
  security: [{ bearer: [] }],
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Meta: {
        type: 'object',
        properties: {
          total: { type: 'integer' },
          perPage: { type: 'integer' },
          currentPage: { type: 'integer' },
          lastPage: { type: 'integer' },
          firstPage: { type: 'integer' },
          firstPageUrl: { type: 'string' },
          lastPageUrl: { type: 'string' },
          nextPageUrl: { type: ['string', 'null'] },
          previousPageUrl: { type: ['string', 'null'] },
        },
      },
      Structure: {
        type: 'object',
        description:
          'root type object (with properties) or array (with items); see docs/api.md#structure-rules',
        required: ['type'],
        properties: { type: { type: 'string', enum: ['object', 'array'] } },
      },
      Schema: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          name: { type: 'string' },
          description: { type: ['string', 'null'] },
          structure: ref('Structure'),
          createdAt: { type: 'string', format: 'date-time' },
          updatedAt: { type: 'string', format: 'date-time' },
        },
      },
      Metadata: {
        type: 'object',
        description:
          'at most 16 keys of 1-40 characters, string values of at most 500; a JSON string in multipart and urlencoded bodies; never sent to the model',
        maxProperties: 16,
        additionalProperties: { type: 'string', maxLength: 500 },
      },
      ExtractionError: {
        type: ['object', 'null'],
        properties: { code: { type: 'string' }, message: { type: 'string' } },
      },
      ExtractionListRecord: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          createdAt: { type: 'string', format: 'date-time' },
          charged: { type: 'boolean' },
          input: {
            type: 'object',
            properties: {
              schema_id: { type: 'string' },
              type: { type: 'string' },
              source: { type: 'string' },
              instruction: { type: 'string' },
            },
          },
          output: { type: ['object', 'array', 'null'] },
          status: { type: 'string', enum: ['pending', 'processing', 'completed', 'failed'] },
          totalTokens: { type: 'string', description: 'numeric text' },
          error: ref('ExtractionError'),
          metadata: ref('Metadata'),
        },
      },
      Extraction: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          schemaId: { type: 'string', format: 'uuid' },
          source: {
            type: 'object',
            properties: {
              type: { type: 'string', enum: ['text', 'image', 'pdf', 'url'] },
              content: { type: 'string' },
            },
          },
          result: { type: ['object', 'array', 'null'] },
          status: { type: 'string', enum: ['pending', 'processing', 'completed', 'failed'] },
          createdAt: { type: 'string', format: 'date-time' },
          updatedAt: { type: 'string', format: 'date-time' },
          totalTokens: { type: 'integer' },
          charged: { type: 'boolean' },
          error: ref('ExtractionError'),
          metadata: ref('Metadata'),
        },
      },
    },
  },
  paths: {
    '/schemas': {
      get: {
        summary: 'List schemas',
        parameters: listParams,
        responses: {
          '200': { description: 'A page of schemas', content: json(paginated('Schema')) },
          ...errors,
        },
      },
      post: {
        summary: 'Create a schema',
        requestBody: { required: true, content: json(schemaBody) },
        responses: {
          '201': { description: 'Created', content: json(ok(ref('Schema'))) },
          ...errors,
        },
      },
    },
    '/schemas/{id}': {
      parameters: [idParam],
      get: {
        summary: 'Get a schema',
        responses: {
          '200': { description: 'The schema', content: json(ok(ref('Schema'))) },
          ...errors,
        },
      },
      put: {
        summary: 'Replace a schema',
        requestBody: { required: true, content: json(schemaBody) },
        responses: {
          '200': { description: 'Updated', content: json(ok(ref('Schema'))) },
          ...errors,
        },
      },
      patch: {
        summary: 'Update some fields of a schema',
        requestBody: { required: true, content: json({ ...schemaBody, required: [] }) },
        responses: {
          '200': { description: 'Updated', content: json(ok(ref('Schema'))) },
          ...errors,
        },
      },
      delete: {
        summary: 'Delete a schema',
        responses: {
          '200': { description: 'Deleted', content: json(ok({ type: 'object' })) },
          ...errors,
        },
      },
    },
    '/extractions': {
      get: {
        summary: 'List extractions',
        parameters: [
          ...listParams,
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: ['pending', 'processing', 'completed', 'failed'] },
          },
          { name: 'schema_id', in: 'query', schema: { type: 'string', format: 'uuid' } },
        ],
        responses: {
          '200': {
            description: 'A page of extractions',
            content: json(paginated('ExtractionListRecord')),
          },
          ...errors,
        },
      },
      post: {
        summary: 'Create an extraction',
        description:
          'Waits for the result up to EXTRACTION_WAIT_SECONDS. `Prefer: respond-async` answers 202 at once; `Prefer: wait=N` waits up to N seconds (0–300).',
        parameters: [{ name: 'Prefer', in: 'header', schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': { schema: extractionForm },
            'application/json': { schema: extractionForm },
            'application/x-www-form-urlencoded': { schema: extractionForm },
          },
        },
        responses: {
          '200': {
            description: 'Completed',
            content: json(
              ok({
                type: 'object',
                properties: {
                  id: { type: 'string' },
                  status: { type: 'string' },
                  output: { type: ['object', 'array'] },
                  totalTokens: { type: 'integer' },
                },
              }),
            ),
          },
          '202': {
            description: 'Accepted, not finished yet; poll Location',
            content: json(ok({ type: 'object' })),
          },
          '502': { description: 'Model provider failure', content: json(errorBody) },
          ...errors,
        },
      },
    },
    '/extractions/{id}': {
      parameters: [idParam],
      get: {
        summary: 'Get an extraction',
        responses: {
          '200': { description: 'The extraction', content: json(ok(ref('Extraction'))) },
          ...errors,
        },
      },
      delete: {
        summary: 'Delete an extraction',
        responses: {
          '200': { description: 'Deleted', content: json(ok({ type: 'object' })) },
          ...errors,
        },
      },
    },
  },
} as const;
