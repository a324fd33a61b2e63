import { z } from 'zod';
import { ExtractionFailure, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@xt/contract';
import { HttpError, validationError } from '../http/errors/errors.ts';
import { MAX_URL_LENGTH, type Allowlist } from '@xt/fetcher';
import { checkEndpointUrl } from '@xt/webhooks';
import { checkFields } from '../http/input/validate.ts';

export const MAX_DESCRIPTION_CHARS = 1000;

export interface EndpointInput {
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
}

// checkEndpointUrl words the URL rules; the meta states them in the OpenAPI document.
const url = z
  .string({ error: (i) => (i.input === undefined ? 'url is required' : 'url must be a string') })
  .trim()
  .min(1, 'url must not be empty')
  .meta({
    maxLength: MAX_URL_LENGTH,
    description: `an absolute http(s) URL without credentials, at most ${MAX_URL_LENGTH} characters, whose host resolves to public addresses only (WEBHOOK_ALLOWLIST exempts some)`,
  });

const events = z
  .array(
    z.enum(WEBHOOK_EVENT_TYPES, {
      error: `each event must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    }),
    {
      error: (i) =>
        i.input === undefined ? 'events is required' : 'events must be an array of event names',
    },
  )
  .min(1, `events must name at least one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`);

const description = z
  .string({ error: 'description must be a string or null' })
  .max(MAX_DESCRIPTION_CHARS, `description must be at most ${MAX_DESCRIPTION_CHARS} characters`)
  .nullable();

const enabled = z.boolean({ error: 'enabled must be true or false' });

/** POST's fields; PATCH takes them all as optional. */
export const endpointFields = z.object({
  url,
  events,
  description: description.optional(),
  enabled: enabled.optional(),
});

const FIELDS = ['url', 'events', 'description', 'enabled'] as const;

/**
 * POST (`full`: url and events required) and PATCH (`partial`: any of the four) bodies. Every
 * problem is reported in one 422; the URL is resolved only once it is otherwise well-formed.
 */
export async function parseEndpointBody(
  body: Record<string, unknown>,
  mode: 'full' | 'partial',
  allowlist: Allowlist,
): Promise<Partial<EndpointInput>> {
  const shape = mode === 'full' ? endpointFields : endpointFields.partial();
  const { data, errors } = checkFields(shape, body);
  if (mode === 'partial' && !FIELDS.some((k) => body[k] !== undefined))
    errors.push({ field: 'body', message: `give at least one of ${FIELDS.join(', ')}` });
  if (typeof body.url === 'string' && !errors.some((e) => e.field === 'url')) {
    const problem = await checkEndpointUrl(body.url.trim(), allowlist).catch((err: unknown) => {
      if (!(err instanceof ExtractionFailure)) throw err;
      throw new HttpError(503, 'UNAVAILABLE', 'The URL could not be checked; retry shortly.', {
        headers: { 'Retry-After': '5' },
        cause: err,
      });
    });
    if (problem) errors.push({ field: 'url', message: problem });
  }
  if (errors.length > 0 || !data) throw validationError(errors);

  const out: Partial<EndpointInput> = {};
  if (data.url !== undefined) out.url = data.url;
  // Order-preserving de-duplication: ["a", "a"] subscribes once.
  if (data.events !== undefined) out.events = [...new Set(data.events)];
  if (mode === 'full') out.description = data.description ?? null;
  else if (data.description !== undefined) out.description = data.description;
  if (mode === 'full') out.enabled = data.enabled ?? true;
  else if (data.enabled !== undefined) out.enabled = data.enabled;
  return out;
}
