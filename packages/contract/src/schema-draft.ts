/**
 * The structure a schema suggestion's first calls ask the model to fill (docs/api.md#suggest-a-schema):
 * the fields a sample carries, as the model proposes them. The API turns the proposals of every
 * sample into one draft `structure`; the stand-in model recognises the request by
 * `DRAFT_FIELDS_KEY` and answers it from the sample's labels, so the tests run offline.
 */
import type { Structure } from './structure-types.ts';

export const DRAFT_FIELDS_KEY = 'proposedFields';

/** `date` is a string holding an ISO date; `list` an array (of rows when it has columns). */
export const PROPOSED_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'list'] as const;
export type ProposedType = (typeof PROPOSED_TYPES)[number];

export const PROPOSED_COLUMN_TYPES = ['string', 'number', 'integer', 'boolean', 'date'] as const;

export interface ProposedColumn {
  name: string;
  type: (typeof PROPOSED_COLUMN_TYPES)[number];
  description?: string | null;
}

export interface ProposedField {
  name: string;
  type: ProposedType;
  description?: string | null;
  /** the allowed values, when the field is one of a few fixed words */
  options?: string[] | null;
  /** a `list`'s columns: each row is an object of them */
  columns?: ProposedColumn[] | null;
}

const NAME_RULE =
  'the field name: the label as the document writes it, in its own language and script, lower case where the script has case, words joined with _, only letters, digits, _ and -, at most 64 characters (for example invoice_number, 取引先)';

const column: Structure['items'] = {
  type: 'object',
  properties: {
    name: { type: 'string', required: true, describe: NAME_RULE },
    type: { type: 'string', required: true, enum: [...PROPOSED_COLUMN_TYPES] },
    description: { type: 'string', describe: 'what the column holds, in one short sentence' },
  },
};

export const DRAFT_REQUEST_STRUCTURE: Structure = {
  type: 'object',
  properties: {
    [DRAFT_FIELDS_KEY]: {
      type: 'array',
      required: true,
      describe:
        'Every piece of information this document carries that a reusable schema for documents like it should capture, once each, in reading order. A table or repeated group is one field of type list with its columns.',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', required: true, describe: NAME_RULE },
          type: {
            type: 'string',
            required: true,
            enum: [...PROPOSED_TYPES],
            describe:
              'date for calendar dates, number or integer for amounts and counts, boolean for yes/no, list for tables and repeated items, string otherwise',
          },
          description: {
            type: 'string',
            required: true,
            describe:
              'what the field holds, in one short sentence, in the language of the document',
          },
          options: {
            type: 'array',
            describe: 'only when the value is always one of a few fixed words: those words',
            items: { type: 'string' },
          },
          columns: {
            type: 'array',
            describe: 'only for type list of rows: the columns of each row',
            items: column,
          },
        },
      },
    },
  },
};

/** What the drafting call is told beside the structure; the client's prompt follows it. */
export const DRAFT_INSTRUCTION =
  'Do not extract values. Propose the fields of a schema for documents like this sample: list each piece of information it carries (labelled values, parties, dates, amounts, identifiers, tables) as one proposed field. Never propose a field the sample does not carry.';
