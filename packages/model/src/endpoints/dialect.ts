import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { JsonSchema } from '../json-schema.ts';
import type { Capabilities } from './capabilities.ts';
import { adaptSchema } from './schema-dialect.ts';

/*
 * How a request body follows what the endpoint takes (capabilities.ts): the answer's shape
 * enforced by the server where it can, else asked for in the prompt; a field the server
 * refuses or ignores is not sent. chat-request.ts assembles the body from these, so a
 * standard call, a batch line and the pipeline version still come from one place.
 */

type ResponseFormat = ChatCompletionCreateParamsNonStreaming['response_format'];

export const SCHEMA_INSTRUCTION =
  'Answer with a single JSON value, and nothing else, that validates against this JSON Schema:';

/** The system message that carries the schema where the server does not enforce it. */
export function schemaInstruction(schema: JsonSchema): string {
  return `${SCHEMA_INSTRUCTION}\n\n\`\`\`json\n${JSON.stringify(schema, null, 2)}\n\`\`\``;
}

/** `response_format` for the endpoint's structured-output mode; undefined: none is sent. */
export function responseFormat(schema: JsonSchema, caps: Capabilities): ResponseFormat {
  switch (caps.structuredOutput) {
    case 'json_schema':
      return {
        type: 'json_schema',
        json_schema: { name: 'extraction', strict: caps.strict, schema: adaptSchema(schema, caps) },
      };
    case 'json_object':
      return { type: 'json_object' };
    case 'prompt':
      return undefined;
  }
}

/**
 * The messages with the schema instruction where the mode needs it. It goes right after the
 * leading system messages: the schema is the same for every call of a structure, so the
 * prefix a prompt cache reuses stays shared, and the source still comes after the rules. The
 * schema goes as built, not adapted: only the model reads it, and nothing refuses a keyword.
 */
export function withSchemaInstruction(
  messages: ChatCompletionMessageParam[],
  schema: JsonSchema,
  caps: Capabilities,
): ChatCompletionMessageParam[] {
  if (caps.structuredOutput === 'json_schema') return messages;
  let at = messages.findIndex((message) => message.role !== 'system');
  if (at === -1) at = messages.length;
  const instruction: ChatCompletionMessageParam = {
    role: 'system',
    content: schemaInstruction(schema),
  };
  return [...messages.slice(0, at), instruction, ...messages.slice(at)];
}
