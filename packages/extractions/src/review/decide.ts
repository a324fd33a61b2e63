import { createHash } from 'node:crypto';
import {
  pointerOf,
  structurePathOf,
  type Citations,
  type FieldDefinition,
  type ReviewPolicy,
  type ReviewReason,
  type Structure,
} from '@xt/contract';

/**
 * Where an extraction's draw falls in [0, 1): from its id alone, so a retried or re-delivered
 * completion draws the same and an extraction is sampled once or never.
 */
export function sampleDraw(extractionId: string): number {
  const digest = createHash('sha256').update(`review-sample:${extractionId}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** Whether a structure path is one the policy looks at: `fields` absent, or a field or its parent listed. */
function watched(policy: ReviewPolicy, pointer: string): boolean {
  if (!policy.fields) return true;
  const path = structurePathOf(pointer);
  return policy.fields.some((f) => path === f || path.startsWith(`${f}/`));
}

const empty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** Required values the output lacks (null, absent, empty), inside array items too. */
function missingRequired(
  def: FieldDefinition,
  value: unknown,
  at: (string | number)[],
  out: string[],
): void {
  if (def.type === 'object' && def.properties) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [name, field] of Object.entries(def.properties)) {
      const child = (value as Record<string, unknown>)[name];
      const path = [...at, name];
      if (field.required && empty(child)) out.push(pointerOf(path));
      else missingRequired(field, child, path, out);
    }
  } else if (def.type === 'array' && def.items && Array.isArray(value)) {
    value.forEach((item, i) => {
      const path = [...at, i];
      if (def.items!.required && empty(item)) out.push(pointerOf(path));
      else missingRequired(def.items!, item, path, out);
    });
  }
}

/**
 * Why a completed extraction goes to review under `policy`, or [] when it does not: values whose
 * citation confidence is below `minConfidence` (known only when citations were asked for),
 * required values not found, and the sample's draw.
 */
export function reviewReasons(input: {
  id: string;
  policy: ReviewPolicy;
  structure: Structure;
  output: unknown;
  citations: Citations | null;
}): ReviewReason[] {
  const { policy } = input;
  const reasons: ReviewReason[] = [];
  for (const [pointer, citation] of Object.entries(input.citations ?? {})) {
    if (citation.confidence === null || citation.confidence >= policy.minConfidence) continue;
    if (!watched(policy, pointer)) continue;
    reasons.push({
      code: 'LOW_CONFIDENCE',
      path: pointer,
      message: `confidence ${citation.confidence.toFixed(2)} is below ${policy.minConfidence}`,
    });
  }
  const missing: string[] = [];
  if (input.structure.required && empty(input.output)) missing.push('');
  else missingRequired(input.structure, input.output, [], missing);
  for (const pointer of missing.filter((p) => watched(policy, p)))
    reasons.push({
      code: 'REQUIRED_NOT_FOUND',
      path: pointer,
      message: 'a required value was not found',
    });
  if (policy.sample !== undefined && sampleDraw(input.id) < policy.sample)
    reasons.push({
      code: 'SAMPLED',
      path: null,
      message: `drawn in the review sample (${policy.sample})`,
    });
  return reasons;
}
