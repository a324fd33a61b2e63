import type { FieldError } from '@xt/contract';

const MESSAGE_JSON = 'citations must be true or false';
const MESSAGE_FORM = 'citations must be "true" or "false"';

/**
 * `citations` as submitted (docs/citations.md#api): a boolean in JSON bodies, the text `true` or
 * `false` in multipart and urlencoded ones (`fromForm`). Absent means false; anything else,
 * `null` and `"1"` included, is refused rather than guessed at.
 */
export function parseCitations(
  raw: unknown,
  fromForm: boolean,
): { citations: boolean; errors: FieldError[] } {
  if (raw === undefined) return { citations: false, errors: [] };
  if (fromForm) {
    if (raw === 'true' || raw === 'false') return { citations: raw === 'true', errors: [] };
    const message = Array.isArray(raw) ? 'citations must be given once' : MESSAGE_FORM;
    return { citations: false, errors: [{ field: 'citations', message }] };
  }
  if (typeof raw === 'boolean') return { citations: raw, errors: [] };
  return { citations: false, errors: [{ field: 'citations', message: MESSAGE_JSON }] };
}
