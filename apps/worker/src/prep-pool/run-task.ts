import { ExtractionFailure, type PreparedSource } from '@xt/contract';
import { prepareImage } from '../sources/image/prepare-image.ts';
import { preparePdf, type PreparedPdf } from '../sources/pdf/prepare-pdf.ts';
import type { PrepResponse, PrepTask } from './tasks.ts';

export async function runTask(task: PrepTask): Promise<PreparedSource | PreparedPdf> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  switch (task.kind) {
    case 'image':
      return prepareImage(bytes, task.opts);
    case 'pdf':
      return preparePdf(bytes, task.opts);
  }
}

/** Runs one request and answers it; never throws, so the thread survives a bad source. */
export async function answer(id: number, task: PrepTask): Promise<PrepResponse> {
  try {
    return { id, ok: true, result: await runTask(task) };
  } catch (err) {
    if (err instanceof ExtractionFailure) {
      return {
        id,
        ok: false,
        error: { code: err.code, message: err.message, retryable: err.retryable },
      };
    }
    const message = err instanceof Error ? err.message : String(err);
    return {
      id,
      ok: false,
      error: { code: 'INTERNAL', message: `Preparation failed: ${message}`, retryable: true },
    };
  }
}
