import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, ExtractionFailedError, NetworkError, fieldProblem } from '@xt/sdk';

/** A mistake in the tool's arguments that the schema cannot express (one of several fields). */
export class ToolInputError extends Error {}

/** A tool's failure as the agent reads it: what went wrong and what to change. */
export function errorResult(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: describe(error) }] };
}

function describe(error: unknown): string {
  if (error instanceof ToolInputError) return error.message;
  if (error instanceof ExtractionFailedError) {
    return `Extraction ${error.extractionId} failed (${error.failureCode}): ${error.message}`;
  }
  if (error instanceof ApiError) {
    const fields = error.errors.map((e) => `\n- ${fieldProblem(e)}`).join('');
    const what = error.body?.message ?? (fields ? 'invalid request' : 'request failed');
    return `The extraction service refused the request (HTTP ${error.status}, ${error.code}): ${what}${fields}`;
  }
  if (error instanceof NetworkError) {
    return `The extraction service could not be reached: ${error.message}. Check XT_BASE_URL.`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A successful result: the value as JSON text, and as structured content for clients that use it. */
export function jsonResult(value: object): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value as Record<string, unknown>,
  };
}
