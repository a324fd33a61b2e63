/** One image found in a chat message, decoded from its data URL. */
export interface RecordedImage {
  mime: string;
  /** size of the decoded image bytes (not of the base64 text) */
  bytes: number;
  detail: string | undefined;
  /** true when the URL was a data URL; remote URLs are recorded with bytes 0 */
  inline: boolean;
  /** read from the PNG or JPEG header; absent for other formats */
  width?: number;
  height?: number;
}

export interface RecordedMessage {
  role: string;
  /** the text of the message, text parts joined with a newline */
  text: string;
  images: RecordedImage[];
}

/** What reached the stand-in, in a form tests can assert on. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** parsed JSON body, or undefined when the body was not JSON */
  body: unknown;
  model: string | undefined;
  messages: RecordedMessage[];
  /** `response_format.json_schema.schema`, when the request had one */
  schema: unknown;
  /** every image of every message, in order */
  images: RecordedImage[];
  /** text of every message joined with a blank line, in order */
  text: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** the part of the prompt a repeated prefix let the provider cache (prompt-cache.ts) */
  prompt_tokens_details?: { cached_tokens: number };
}

/**
 * How the stand-in answers one request. Fields combine: `{ delayMs: 50, output: {...} }`
 * waits, then answers with that output. Without `status`, `refuse`, `content`, `output`,
 * `respond` or `hang`, the answer is generated from the request's schema.
 *
 * Like a model, it follows what the service asks for with citations (docs/citations.md): when
 * the schema asks for `{ output, quotes }` the output is wrapped so, with each value's quote
 * copied from the source where it is written; when a request asks for a list's items after
 * the first N, it answers only those. Log-probabilities come when the request asks for them.
 */
export interface Behaviour {
  /**
   * Chooses this request's behaviour from what it carried (undefined: this one's other
   * fields): a test makes one request of many misbehave when arrival order is not known.
   */
  pick?: (request: RecordedRequest) => Behaviour | undefined;
  delayMs?: number;
  /**
   * Waited on before answering (after `delayMs`): a test holds chosen requests until it has
   * seen what it wants to see meanwhile, instead of guessing a delay.
   */
  gate?: (request: RecordedRequest) => Promise<unknown> | undefined;
  /** answer with this HTTP status and an OpenAI-style error body (or `body` when given) */
  status?: number;
  body?: unknown;
  /** extra response headers, e.g. `retry-after` */
  headers?: Record<string, string>;
  /** answer with `message.refusal` set and no content */
  refuse?: string;
  /** raw `message.content`, e.g. text that is not JSON or JSON that breaks the schema */
  content?: string;
  /** a specific JSON value as the content */
  output?: unknown;
  /**
   * answer as the oracle: only values found in what was sent (labelled values, table rows,
   * text read from images with tesseract), cut at the output cap with `finish_reason: length`
   */
  oracle?: boolean;
  /** compute the output from the request */
  respond?: (request: RecordedRequest) => unknown;
  /** never answer (until the client gives up or the server closes) */
  hang?: boolean;
  /** override parts of the reported usage */
  usage?: Partial<Usage>;
  finishReason?: 'stop' | 'length' | 'content_filter';
  /**
   * The model's output limit in tokens (4 characters each): a longer answer comes back cut
   * there with finish_reason `length`, as a real model's would.
   */
  outputLimit?: number;
  /** `false` leaves out token log-probabilities even when the request asks for them */
  logprobs?: boolean;
  /** the log-probability of every token when they are sent; default -0.01 */
  tokenLogprob?: number;
  /**
   * Values the model makes up: set at these pointers into the output (they appear nowhere in
   * the source), with the quote the model claims for each (default null).
   */
  invent?: { pointer: string; value: unknown; quote?: string }[];
}

/** The servers whose self-description the stand-in imitates (`GET /props`, `/api/show`, …). */
export type ServerKind = 'openai' | 'vllm' | 'llamacpp' | 'ollama' | 'lmstudio';

/**
 * How much of OpenAI's dialect the stand-in speaks (issue #36): each field imitates what a
 * real server does, so the service is tested against servers that speak less. `{}` is OpenAI.
 */
export interface Dialect {
  /** which server it says it is, at its own endpoints; default 'openai' (none of them) */
  server?: ServerKind;
  /**
   * - `json_schema`: enforced, as OpenAI strict mode (default);
   * - `json_object_only`: `json_schema` refused with a 400, `json_object` taken (Groq, DeepSeek);
   * - `ignored`: any response_format taken, the JSON answered in a ```json fence after a sentence
   *   (vLLM without guided decoding);
   * - `unenforced`: taken, but the JSON does not follow the schema unless the prompt carries it.
   */
  structuredOutput?: 'json_schema' | 'json_object_only' | 'ignored' | 'unenforced';
  /** request fields refused with a 400 naming them, as vLLM's pydantic models do */
  rejectFields?: string[];
  /** `false`: a request with image parts is refused as a text-only model refuses it */
  images?: boolean;
  /** `false`: never sends log-probabilities, silently */
  logprobs?: boolean;
  /** the context window in tokens (4 characters of request body each) */
  contextTokens?: number;
  /** a longer prompt: cut silently (default, as Ollama does) or refused (vLLM) */
  overflow?: 'truncate' | 'error';
  /**
   * chat requests worked at once; the rest wait in the server, first come first served. Only
   * llama.cpp tells it (`total_slots`); any other server queues just the same and tells nothing,
   * as Ollama with OLLAMA_NUM_PARALLEL or a generic compatible server does.
   */
  slots?: number;
  /** the first N chat requests answer 503 "Loading model", as llama.cpp does while loading */
  loading?: number;
}

/** What a dialect's server saw of the load put on it. */
export interface StandInStats {
  /** the most chat requests worked at once */
  maxInFlight: number;
  /** the most chat requests waiting for a slot at once */
  maxQueued: number;
  /** requests whose client went away while they were queued or worked */
  abandoned: number;
  /**
   * per chat request in the order they came, the requests waiting for a slot just after it came,
   * itself included (0: it was worked at once)
   */
  queuedOnArrival: number[];
}
