import { toFile, type OpenAI } from 'openai';

/** The provider has no Files or Batches interface (docs/batch.md#providers-without-one). */
export class BatchUnsupported extends Error {}

/** What the provider says of a batch: still working (or cancelling), or over. */
export type BatchState = { kind: 'working' | 'over'; status: string };

/** Statuses after which a batch answers nothing more. */
const OVER = new Set(['completed', 'failed', 'expired', 'cancelled']);

/**
 * OpenAI's Files and Batches interface for rounds of chat completions: a JSONL file of
 * `{ custom_id, method, url, body }` lines, a batch over it with `metadata.round` naming the
 * round (so a create whose answer was lost is found again), its output read back by custom_id.
 */
export function batchProvider(openai: OpenAI) {
  /** 404, 405 and 501 mean the interface is not there, not that it failed. */
  const unsupported = (error: unknown): never => {
    const status = (error as { status?: unknown }).status;
    if (status === 404 || status === 405 || status === 501)
      throw new BatchUnsupported(`the provider answered ${status} to its batch interface`);
    throw error;
  };

  /** A file or batch the provider no longer has is already what a delete wants. */
  const gone = (error: unknown): void => {
    if ((error as { status?: unknown }).status !== 404) throw error;
  };

  async function answersOf(fileId: string | null | undefined, into: Record<string, unknown>) {
    if (!fileId) return;
    const text = await (await openai.files.content(fileId)).text();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const parsed = JSON.parse(line) as {
        custom_id: string;
        response?: { status_code?: number; body?: unknown } | null;
        error?: unknown;
      };
      const ok = parsed.response?.status_code === 200 && parsed.response.body;
      // A failed line is answered by a standard call instead (docs/batch.md).
      into[parsed.custom_id] = ok
        ? parsed.response?.body
        : { error: parsed.error ?? parsed.response?.body ?? 'failed' };
    }
  }

  return {
    async upload(roundId: string, requests: Record<string, unknown>): Promise<string> {
      const lines = Object.entries(requests).map(([customId, body]) =>
        JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body }),
      );
      const file = await openai.files
        .create({
          file: await toFile(Buffer.from(`${lines.join('\n')}\n`), `${roundId}.jsonl`),
          purpose: 'batch',
        })
        .catch(unsupported);
      return file.id;
    },

    /**
     * The batch an earlier create made for this round (opened at `since`), when its answer never
     * came back. The list is newest first: pages are read back to the round's opening (a minute
     * before it, for clocks apart), since a busy organisation may have created many batches
     * since; none made before the round can be its own.
     */
    async find(roundId: string, since: Date): Promise<string | undefined> {
      const floor = since.getTime() / 1000 - 60;
      let page = await openai.batches.list({ limit: 100 }).catch(unsupported);
      for (;;) {
        for (const batch of page.data) {
          if (batch.metadata?.round === roundId) return batch.id;
          if (batch.created_at < floor) return undefined;
        }
        if (!page.hasNextPage()) return undefined;
        page = await page.getNextPage();
      }
    },

    async create(fileId: string, roundId: string): Promise<string> {
      const batch = await openai.batches
        .create({
          input_file_id: fileId,
          endpoint: '/v1/chat/completions',
          completion_window: '24h',
          metadata: { round: roundId },
        })
        .catch(unsupported);
      return batch.id;
    },

    async state(batchId: string): Promise<BatchState> {
      const batch = await openai.batches.retrieve(batchId);
      return { kind: OVER.has(batch.status) ? 'over' : 'working', status: batch.status };
    },

    /** What the batch answered, by custom_id: its output lines and its failed ones. */
    async answers(batchId: string): Promise<Record<string, unknown>> {
      const batch = await openai.batches.retrieve(batchId);
      const into: Record<string, unknown> = {};
      await answersOf(batch.output_file_id, into);
      await answersOf(batch.error_file_id, into);
      return into;
    },

    async cancel(batchId: string): Promise<void> {
      await openai.batches.cancel(batchId);
    },

    /**
     * Deletes a round's files at the provider, for a round whose batch is over or never made:
     * its input (document text, page images) and the batch's output and error files (the
     * answers). Kept, they would outlive UPLOAD_RETENTION_HOURS and the extraction's deletion.
     */
    async discard(round: { fileId: string | null; batchId: string | null }): Promise<void> {
      const files = new Set<string>(round.fileId ? [round.fileId] : []);
      if (round.batchId) {
        const batch = await openai.batches.retrieve(round.batchId).catch(gone);
        for (const id of [batch?.input_file_id, batch?.output_file_id, batch?.error_file_id])
          if (id) files.add(id);
      }
      for (const id of files) await openai.files.delete(id).catch(gone);
    },
  };
}

export type BatchProvider = ReturnType<typeof batchProvider>;
