import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { undocumentedReason } from './documented.ts';
import { send, type Answer } from './http.ts';

export interface FaultClientOptions {
  /** The API's base URL (read at each request, so a test may point clients elsewhere). */
  baseUrl: () => string;
  apiKey: string;
  schemaId: string;
  /** Submissions started per second (open loop, as independent clients). */
  perSecond: number;
  /** `sync` waits for the result (`Prefer: wait=N`); `async` asks for 202 at once. */
  mode: 'sync' | 'async';
  /** For `sync`: the wait asked of the API. */
  waitSeconds?: number;
  /** A request unanswered after this long is a hang (and is retried). Above the wait. */
  requestTimeoutMs?: number;
  /** How long one submission keeps retrying before it is given up. */
  retryForMs?: number;
  /** Put in every source, so model calls can be told apart per submission. */
  label: string;
}

export interface Submission {
  idempotencyKey: string;
  /** Unique text in the source: model requests carrying it belong to this submission. */
  marker: string;
  answers: Answer[];
  /** Every extraction id an answer named (one, when the key was honoured). */
  ids: Set<string>;
  accepted: boolean;
}

/**
 * A client loop for fault tests: submits text extractions at a steady rate, each with its own
 * Idempotency-Key, and retries a submission with the same key after a 429, a 503 or no answer
 * (the connection refused or reset, or the request timed out), as a careful client does.
 */
export class FaultClient {
  readonly submissions: Submission[] = [];
  readonly #options: Required<FaultClientOptions>;
  readonly #inFlight: Promise<void>[] = [];
  #running = false;
  #loop: Promise<void> | undefined;

  constructor(options: FaultClientOptions) {
    this.#options = {
      waitSeconds: 10,
      requestTimeoutMs: (options.waitSeconds ?? 10) * 1000 + 10_000,
      retryForMs: 60_000,
      ...options,
    };
  }

  start(): void {
    this.#running = true;
    this.#loop = (async () => {
      const t0 = performance.now();
      for (let n = 0; this.#running; n++) {
        this.#inFlight.push(this.#submit(n));
        const next = t0 + ((n + 1) * 1000) / this.#options.perSecond;
        await sleep(Math.max(0, next - performance.now()));
      }
    })();
  }

  /** Stops starting submissions and waits until every started one is accepted or given up. */
  async stop(): Promise<Submission[]> {
    this.#running = false;
    await this.#loop;
    await Promise.all(this.#inFlight);
    return this.submissions;
  }

  /** Every answer that the API does not document, with why. */
  undocumented(options: { allowNoAnswer?: boolean } = {}): string[] {
    const problems: string[] = [];
    for (const submission of this.submissions) {
      for (const answer of submission.answers) {
        if (answer.timedOut) {
          problems.push(`no answer within ${answer.ms.toFixed(0)} ms (a hang)`);
          continue;
        }
        if (answer.status === 0 && options.allowNoAnswer) continue;
        const reason = undocumentedReason(answer, [200, 202]);
        if (reason !== undefined) problems.push(`${reason}: ${answer.body.slice(0, 300)}`);
      }
    }
    return problems;
  }

  async #submit(n: number): Promise<void> {
    const o = this.#options;
    const marker = `${o.label}-${n}-${randomUUID().slice(0, 8)}`;
    const submission: Submission = {
      idempotencyKey: randomUUID(),
      marker,
      answers: [],
      ids: new Set(),
      accepted: false,
    };
    this.submissions.push(submission);
    const body = JSON.stringify({
      schema_id: o.schemaId,
      type: 'text',
      source: `Order ${marker}: 3 boxes of nails, total 12.50 EUR.`,
    });
    const giveUpAt = performance.now() + o.retryForMs;
    for (let attempt = 1; ; attempt++) {
      const answer = await send(`${o.baseUrl()}/v1/extractions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${o.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': submission.idempotencyKey,
          prefer: o.mode === 'async' ? 'respond-async' : `wait=${o.waitSeconds}`,
        },
        body,
        timeoutMs: o.requestTimeoutMs,
      });
      submission.answers.push(answer);
      const id = extractionId(answer);
      if (id !== undefined) submission.ids.add(id);
      if (answer.status >= 200 && answer.status < 300) {
        submission.accepted = true;
        return;
      }
      const retryable = answer.status === 0 || answer.status === 429 || answer.status === 503;
      if (!retryable || performance.now() > giveUpAt) return;
      const after = Number(answer.headers.get('retry-after') ?? 0);
      await sleep(after > 0 ? after * 1000 : Math.min(2_000, 100 * 2 ** attempt));
    }
  }
}

function extractionId(answer: Answer): string | undefined {
  try {
    const parsed = JSON.parse(answer.body) as {
      data?: { id?: unknown };
      extractionId?: unknown;
    };
    const id = parsed.data?.id ?? parsed.extractionId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
