/**
 * Splitting a bundle (docs/split.md): what a create asks (`split`), what the parent and child
 * records show, and the classification call the worker makes for each chunk of pages. The
 * stand-in model recognises that call by `SPLIT_PAGES_KEY` and reads the text this file writes
 * (`splitPagesText`) back with `readSplitPagesText`, so the tests run offline.
 */
import { z } from 'zod';
import type { Structure } from './structure-types.ts';

export const SPLIT_PAGES_KEY = 'bundlePages';
/** The class of pages that belong to no class the client named; reserved as a name. */
export const SPLIT_OTHER_CLASS = 'other';
export const MAX_SPLIT_CLASSES = 20;
export const MAX_SPLIT_CLASS_NAME_CHARS = 64;
export const MAX_SPLIT_DESCRIPTION_CHARS = 1000;
/** Letters, digits, `_`, `-` and spaces. */
export const SPLIT_CLASS_NAME_PATTERN = /^[\p{L}\p{N}_\- ]+$/u;
/** What each page tells the classification: the start of its text, no more. */
export const SPLIT_PAGE_TEXT_CHARS = 600;

/** One class of a split, as the create names it (wire spelling: `schema_id`). */
export interface SplitClass {
  name: string;
  description?: string;
  schema_id?: string;
}

/** `split` on a create: the classes, and whether unclassified pages become `other` documents. */
export interface SplitRequest {
  classes: SplitClass[];
  other: boolean;
}

/** A document's pages in the bundle, 1-based, both inclusive. */
export interface SplitPages {
  from: number;
  to: number;
}

export interface SplitDocument {
  class: string;
  pages: SplitPages;
  /** The lowest of its pages' confidences, 0..1. */
  confidence: number;
  /** The child extraction reading it; null when its class names no schema (or is `other`). */
  extractionId: string | null;
}

/** A completed split parent's `result`. */
export interface SplitResult {
  documents: SplitDocument[];
}

export const SplitClassSchema = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    schema_id: z.uuid().optional(),
  })
  .meta({ id: 'SplitClass' });

export const SplitRequestSchema = z
  .object({
    classes: z.array(SplitClassSchema).min(1).max(MAX_SPLIT_CLASSES),
    other: z.boolean(),
  })
  .meta({
    id: 'Split',
    description:
      'present only on a bundle split into its documents (docs/split.md): the classes asked for, as given at create',
  });

export const SplitPagesSchema = z
  .object({ from: z.int().min(1), to: z.int().min(1) })
  .meta({ id: 'SplitPages', description: "the bundle's pages, 1-based, both inclusive" });

export const SplitResultSchema = z
  .object({
    documents: z.array(
      z.object({
        class: z.string(),
        pages: SplitPagesSchema,
        confidence: z.number().min(0).max(1),
        extractionId: z.uuid().nullable().meta({
          description:
            'the child extraction reading this document; null when its class names no schema, or is `other`',
        }),
      }),
    ),
  })
  .meta({
    id: 'SplitResult',
    description:
      'a completed split parent’s result: its documents in page order, covering every page once',
  });

/* ---- The classification call ---- */

/** One page as the model classified it. */
export interface ClassifiedPage {
  page: number;
  class: string;
  startsDocument: boolean;
  confidence: number;
}

/** The structure of a classification call, its `class` an enum of the classes and `other`. */
export function splitRequestStructure(classNames: readonly string[]): Structure {
  return {
    type: 'object',
    properties: {
      [SPLIT_PAGES_KEY]: {
        type: 'array',
        required: true,
        describe: 'Every page of the source, once each, in page order.',
        items: {
          type: 'object',
          properties: {
            page: { type: 'integer', required: true, describe: 'the page number as given' },
            class: {
              type: 'string',
              required: true,
              enum: [...classNames, SPLIT_OTHER_CLASS],
              describe: `the class of the document this page belongs to; ${SPLIT_OTHER_CLASS} when none fits`,
            },
            startsDocument: {
              type: 'boolean',
              required: true,
              describe:
                'true when this page is the first page of a document, false when it continues the document of the page before',
            },
            confidence: {
              type: 'number',
              required: true,
              describe: 'how sure you are of the class, from 0 to 1',
            },
          },
        },
      },
    },
  };
}

/** What the classification call is told beside the structure. */
export const SPLIT_INSTRUCTION =
  'Do not extract values. The source is a bundle of documents scanned or saved together, given page by page (the start of each page). Classify every page into one of the classes listed, and say whether it starts a new document or continues the one before.';

const PAGE_MARK = /^=== page (\d+) ===$/;
const CLASS_MARK = /^- class: (.+?)(?: — (.*))?$/;

/**
 * The text a classification call reads: the classes with their descriptions, then each page's
 * number and the start of its text. `context` names a page sent only so that the next one can
 * be read as continuing it (the last page of the chunk before); its answer is not used.
 */
export function splitPagesText(input: {
  classes: readonly { name: string; description?: string | undefined }[];
  pages: readonly { page: number; text: string }[];
  context?: number | undefined;
}): string {
  const classes = input.classes.map(
    (c) => `- class: ${c.name}${c.description ? ` — ${c.description.replace(/\s+/g, ' ')}` : ''}`,
  );
  const pages = input.pages.map(
    (p) => `=== page ${p.page} ===\n${p.text.slice(0, SPLIT_PAGE_TEXT_CHARS).trim()}`,
  );
  const context =
    input.context === undefined
      ? []
      : [
          `(Page ${input.context} ends the part of the bundle before these pages and is given for context: the page after it may continue its document.)`,
          '',
        ];
  return ['Classes:', ...classes, '', ...context, 'Pages:', ...pages].join('\n');
}

/** `splitPagesText` read back (the stand-in model's side). */
export function readSplitPagesText(text: string): {
  classes: { name: string; description?: string }[];
  pages: { page: number; text: string }[];
} {
  const classes: { name: string; description?: string }[] = [];
  const pages: { page: number; text: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const mark = PAGE_MARK.exec(line.trim());
    if (mark) {
      pages.push({ page: Number(mark[1]), text: '' });
      continue;
    }
    const current = pages.at(-1);
    if (current) {
      current.text += `${current.text ? '\n' : ''}${line}`;
      continue;
    }
    const cls = CLASS_MARK.exec(line.trim());
    if (cls)
      classes.push({ name: cls[1]!, ...(cls[2] !== undefined ? { description: cls[2] } : {}) });
  }
  return { classes, pages };
}

/* ---- What is stored ---- */

/**
 * A split parent's request as stored: each class with a snapshot of its schema's name and
 * structure taken at create, so a later edit or deletion of the schema never changes what the
 * bundle's children read.
 */
export interface StoredSplit {
  classes: {
    name: string;
    description?: string;
    schemaId?: string;
    schemaName?: string;
    schemaStructure?: Structure;
  }[];
  other: boolean;
}

/** A child's pages of its bundle (read with the bundle's numbers), and how many the bundle has. */
export interface StoredSplitPages extends SplitPages {
  of: number;
}

/** The request as the records echo it: wire spelling, no snapshots. */
export function splitOfStored(stored: StoredSplit): SplitRequest {
  return {
    classes: stored.classes.map((c) => ({
      name: c.name,
      ...(c.description !== undefined ? { description: c.description } : {}),
      ...(c.schemaId !== undefined ? { schema_id: c.schemaId } : {}),
    })),
    other: stored.other,
  };
}
