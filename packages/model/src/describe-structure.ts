import type { FieldDefinition, Structure } from '@xt/contract';
import { fieldDescription, isRequired, lengthHint } from './field-rules.ts';

/**
 * The structure as a field list in plain words. The JSON schema already constrains the form;
 * this tells the model what each field means, which ones are optional (null when absent) and
 * the rules strict mode cannot carry (lengths).
 */
export function describeStructure(structure: Structure): string {
  const lines: string[] = [];
  if (structure.type === 'array') {
    lines.push(
      'The answer is a list. Put every element the source contains into `items`, in document order.',
    );
    if (structure.items) describeElement(structure.items, 'items[]', lines);
  } else {
    lines.push('The answer is an object with these fields:');
    describeProperties(structure, '', lines);
  }
  return lines.join('\n');
}

function describeProperties(field: FieldDefinition, prefix: string, lines: string[]): void {
  for (const [name, child] of Object.entries(field.properties ?? {})) {
    const path = `${prefix}${name}`;
    lines.push(
      `- ${path} (${typeName(child)}, ${isRequired(child) ? 'required' : 'optional: null when absent'})${explain(child)}`,
    );
    describeChildren(child, path, lines);
  }
}

function describeElement(field: FieldDefinition, path: string, lines: string[]): void {
  // the list's own line already names the element type; say more only when there is more
  const text = explain(field);
  if (text) lines.push(`- ${path} (each element: ${typeName(field)})${text}`);
  describeChildren(field, path, lines);
}

function describeChildren(field: FieldDefinition, path: string, lines: string[]): void {
  if (field.type === 'object') describeProperties(field, `${path}.`, lines);
  if (field.type === 'array' && field.items) describeElement(field.items, `${path}[]`, lines);
}

function typeName(field: FieldDefinition): string {
  if (field.type === 'array') return `list of ${field.items ? field.items.type : 'values'}`;
  if (field.type === 'string' && field.enum) {
    return `one of ${field.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return field.type;
}

function explain(field: FieldDefinition): string {
  const text = [fieldDescription(field), lengthHint(field)].filter(Boolean).join(' ');
  return text ? `: ${text}` : '';
}
