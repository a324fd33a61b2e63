import { ExtractionFailure } from '@xt/contract';
import { renderPreviews } from '../previews/render.ts';
import { prepareImage } from '../image/prepare-image.ts';
import { preparePdf } from '../pdf/prepare-pdf.ts';
import { cutPdf } from '../pdf/cut-pdf.ts';
import { prepareSpreadsheet } from '../spreadsheet/prepare-spreadsheet.ts';
import { prepareTextBytes } from '../text.ts';
import { prepareMarkdownBytes } from '../markdown/read-markdown.ts';
import { acceptTrackedChanges } from '../document/accept-changes.ts';
import { readMessage } from '../email/read-message.ts';
import { HtmlTooDeepError, htmlToMarkdown } from '../webpage/markdown/html.ts';
import type { PrepResponse, PrepTask, TaskResult } from './tasks.ts';

function staticMarkdown(html: string): string {
  try {
    return htmlToMarkdown(html).markdown;
  } catch (err) {
    if (err instanceof HtmlTooDeepError)
      throw new ExtractionFailure('SOURCE_UNREADABLE', err.message);
    throw err;
  }
}

export async function runTask(task: PrepTask): Promise<TaskResult> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  switch (task.kind) {
    case 'image':
      return prepareImage(bytes, task.opts);
    case 'pdf':
      return preparePdf(bytes, task.opts);
    case 'pdf-cut':
      return cutPdf(bytes, task.opts);
    case 'text':
      return task.frontMatter
        ? prepareMarkdownBytes(bytes, task.citations)
        : prepareTextBytes(bytes, task.contentType, staticMarkdown, task.citations);
    case 'email':
      return readMessage(bytes, task.format, { maxParts: task.maxParts, html: staticMarkdown });
    case 'spreadsheet':
      return prepareSpreadsheet(bytes, task.format, task.opts);
    case 'previews':
      return renderPreviews(task);
    case 'accept-changes': {
      // Unchanged bytes are not sent back: the caller still has its own copy.
      const accepted = acceptTrackedChanges(bytes, task.format);
      return accepted.changes > 0 ? accepted : { bytes: new Uint8Array(), changes: 0 };
    }
  }
}

/**
 * A parser that recursed as deep as the source nests (HTML, JSON, a PDF's objects) ran out of
 * stack: the source is unreadable, and trying it again would end the same way.
 */
function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

/**
 * An allocation the process's memory bound refused where the code asking could be told (a Buffer
 * or typed array: V8's RangeError; libvips: its own message): the source needs more memory to
 * prepare than allowed. Allocations that cannot be refused that way end the process instead
 * (pool.ts reads that as the same).
 */
function isOutOfMemory(err: unknown): boolean {
  return (
    err instanceof Error &&
    /array buffer allocation failed|failed to allocate memory|out of memory/i.test(err.message)
  );
}

/** What a preparation that threw answers: its contract code, or INTERNAL (retried). */
export function failedResponse(id: number, err: unknown): PrepResponse {
  const failure = (code: string, message: string, retryable: boolean): PrepResponse => ({
    id,
    ok: false,
    error: { code, message, retryable },
  });
  if (err instanceof ExtractionFailure) return failure(err.code, err.message, err.retryable);
  if (isStackOverflow(err)) {
    return failure('SOURCE_UNREADABLE', 'The source nests too deeply to be read.', false);
  }
  if (isOutOfMemory(err)) {
    return failure(
      'SOURCE_TOO_LARGE',
      'The source needs more memory to prepare than allowed.',
      false,
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return failure('INTERNAL', `Preparation failed: ${message}`, true);
}

/** Runs one request and answers it; never throws, so the process survives a bad source. */
export async function answer(id: number, task: PrepTask): Promise<PrepResponse> {
  try {
    return { id, ok: true, result: await runTask(task) };
  } catch (err) {
    return failedResponse(id, err);
  }
}
