import type { FieldDefinition, Structure } from '@xt/contract';

/**
 * The structure with every field optional. One chunk of a long document rarely holds every
 * required value (the invoice number is on page 1, the total on page 9), so chunks are asked
 * for what they contain and `required` is checked once, on the merged output.
 */
export function relaxStructure(structure: Structure): Structure {
  return relax(structure) as Structure;
}

function relax(field: FieldDefinition): FieldDefinition {
  const out: FieldDefinition = { ...field, required: false };
  if (field.properties) {
    out.properties = Object.fromEntries(
      Object.entries(field.properties).map(([name, child]) => [name, relax(child)]),
    );
  }
  if (field.items) out.items = relax(field.items);
  return out;
}
