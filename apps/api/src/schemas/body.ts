import { z } from 'zod';
import {
  isStructure,
  validateReviewPolicy,
  validateStructure,
  type FieldError,
  type ReviewPolicy,
  type Structure,
} from '@xt/contract';
import { validationError } from '../http/errors/errors.ts';
import { checkFields } from '../http/input/validate.ts';

const name = z
  .string({ error: (i) => (i.input === undefined ? 'name is required' : 'name must be a string') })
  .trim()
  .min(1, 'name must not be empty')
  .max(255, 'name must be at most 255 characters');

const description = z
  .string({ error: 'description must be a string or null' })
  .max(2000, 'description must be at most 2000 characters')
  .nullable();

/** The scalar fields of POST and PUT; PATCH takes them all as optional. `structure` is checked by validateStructure. */
export const schemaFields = z.object({ name, description: description.optional() });

export interface SchemaInput {
  name: string;
  description: string | null;
  structure: Structure;
  /** Review settings (docs/review.md); null for none. */
  review: ReviewPolicy | null;
}

function structureErrors(body: Record<string, unknown>, required: boolean): FieldError[] {
  if (!('structure' in body) || body.structure === undefined)
    return required ? [{ field: 'structure', message: 'structure is required' }] : [];
  return validateStructure(body.structure, 'structure');
}

/**
 * Validates name, description and structure together so one 422 lists every problem at once.
 * `partial` is PATCH: only the fields present are checked and returned.
 */
export function parseSchemaBody(
  body: Record<string, unknown>,
  mode: 'full' | 'partial',
): Partial<SchemaInput> {
  const fields = mode === 'full' ? schemaFields : schemaFields.partial();
  const { data: scalar, errors } = checkFields(fields, body);
  const structureProblems = structureErrors(body, mode === 'full');
  errors.push(...structureProblems);
  // Review fields are checked against the structure of the body; a PATCH without one is
  // checked against the stored structure by the service.
  const structure =
    structureProblems.length === 0 && isStructure(body.structure) ? body.structure : undefined;
  const review =
    body.review === undefined ? undefined : validateReviewPolicy(body.review, structure);
  if (review) errors.push(...review.errors);
  if (
    mode === 'partial' &&
    !['name', 'description', 'structure', 'review'].some((k) => body[k] !== undefined)
  )
    errors.push({
      field: 'body',
      message: 'give at least one of name, description, structure, review',
    });
  if (errors.length > 0 || !scalar) throw validationError(errors);

  const out: Partial<SchemaInput> = {};
  if (scalar.name !== undefined) out.name = scalar.name;
  if (mode === 'full') out.description = scalar.description ?? null;
  else if (scalar.description !== undefined) out.description = scalar.description;
  if (body.structure !== undefined) out.structure = body.structure as Structure;
  if (review) out.review = review.policy ?? null;
  else if (mode === 'full') out.review = null;
  return out;
}
