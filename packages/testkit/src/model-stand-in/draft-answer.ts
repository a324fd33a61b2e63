import { DRAFT_FIELDS_KEY, type ProposedColumn, type ProposedField } from '@xt/contract';
import { isLabelLine } from './oracle/labelled.ts';
import { isRecord } from './oracle/schema-walk.ts';

/*
 * How the stand-in answers a schema suggestion's drafting call (packages/contract's
 * schema-draft.ts): as a model reading the sample would, deterministically. Each "Label: value"
 * line becomes a field named after its label (`Invoice number` → `invoice_number`, `取引先`
 * stays `取引先`), typed by its value; a Markdown table becomes a list of rows with its header's
 * columns, named after the heading above it. The oracle then finds the same labels' values in
 * the draft run, so a test sees the fields a document really carries.
 */

/** True when the schema asked for is the drafting structure. */
export function asksForDraft(schema: unknown): boolean {
  return isRecord(schema) && isRecord(schema.properties) && DRAFT_FIELDS_KEY in schema.properties;
}

function nameOf(label: string): string {
  return label
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean)
    .join('_')
    .slice(0, 64);
}

function typeOf(value: string): ProposedColumn['type'] {
  const v = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return 'date';
  if (/^(yes|no|true|false)$/i.test(v)) return 'boolean';
  if (/^[-+]?\d+$/.test(v)) return 'integer';
  if (/^(?:[$€£]\s?)?[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?[A-Z]{3})?$/.test(v))
    return 'number';
  return 'string';
}

const plain = (line: string) =>
  line
    .trim()
    .replace(/^(?:[-*+]\s+|#+\s+)/, '')
    .replaceAll('**', '');
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

function table(
  lines: string[],
  at: number,
  heading: string | undefined,
): ProposedField | undefined {
  const header = cells(lines[at]!);
  const rule = lines[at + 1];
  if (!rule || !/^\|?\s*:?-{3,}/.test(rule.trim())) return undefined;
  const first = lines[at + 2]?.trim().startsWith('|') ? cells(lines[at + 2]!) : [];
  const columns = header.flatMap((label, i): ProposedColumn[] => {
    const name = nameOf(label);
    return name
      ? [{ name, type: typeOf(first[i] ?? ''), description: `The ${label} of a row.` }]
      : [];
  });
  if (columns.length === 0) return undefined;
  const name = (heading && nameOf(heading)) || 'rows';
  return {
    name,
    type: 'list',
    description: `The rows of the ${heading ?? ''} table.`,
    options: null,
    columns,
  };
}

/** The proposals for the sample whose lines these are. */
export function draftAnswer(lines: string[]): Record<string, ProposedField[]> {
  const fields: ProposedField[] = [];
  const seen = new Set<string>();
  const add = (field: ProposedField | undefined) => {
    if (!field?.name || seen.has(field.name)) return;
    seen.add(field.name);
    fields.push(field);
  };
  let heading: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*#+\s+\S/.test(line)) heading = plain(line);
    if (line.trim().startsWith('|')) {
      add(table(lines, i, heading));
      while (lines[i + 1]?.trim().startsWith('|')) i++;
      continue;
    }
    if (!isLabelLine(line)) continue;
    const text = plain(line);
    const colon = text.indexOf(':');
    const label = text.slice(0, colon);
    const value = text.slice(colon + 1);
    const name = nameOf(label);
    if (!name) continue;
    add({
      name,
      type: typeOf(value),
      description: `The ${label.trim()}.`,
      options: null,
      columns: null,
    });
  }
  return { [DRAFT_FIELDS_KEY]: fields };
}
