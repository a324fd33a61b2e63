import os from 'node:os';
import { z } from 'zod';
import {
  baseConfig,
  jobPolicyConfig,
  parseEnv,
  reuseConfig,
  sourceLimitsConfig,
} from '@xt/runtime';
import {
  modelEndpointsConfig,
  singleEndpointConfig,
  PriceOverridesSchema,
  priceTable,
  registryFromSettings,
  unknownPricedModels,
  type ModelRegistry,
} from '@xt/model';
import { DEFAULT_RETRY_DELAYS, parseRetryDelays } from '@xt/webhooks';

const MiB = 1024 * 1024;

/** MODEL_PRICES: JSON of per-model prices over the defaults (docs/cost.md). */
const modelPrices = z
  .string()
  .default('{}')
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object (docs/cost.md)' });
      return z.NEVER;
    }
  })
  .pipe(PriceOverridesSchema)
  .transform((overrides) => priceTable(overrides));

const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/**
 * The worker's configuration, read once at start-up; each bad variable is named in the error.
 * Limits default to docs/api.md#limits.
 */
export const configSchema = z.object({
  ...baseConfig,
  ...jobPolicyConfig,
  ...sourceLimitsConfig,
  ...reuseConfig,
  // Host first: in a container every replica's pid is 1, and the healthcheck finds its own by host.
  WORKER_NAME: z.string().default(`${os.hostname()}-${process.pid}`),

  // /healthz, /readyz and /metrics (docs/observability.md) listen on WORKER_METRICS_PORT +
  // WORKER_INDEX, so several workers on one host (the launcher's WORKER_PROCESSES) each get
  // their own port; 0 serves none.
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  WORKER_INDEX: int(0),
  WORKER_METRICS_HOST: z.string().default('0.0.0.0'),

  // Several model servers in one place (docs/models.md); unset: the one endpoint
  // OPENAI_API_KEY, OPENAI_BASE_URL and MODEL_MAP describe.
  ...modelEndpointsConfig,
  ...singleEndpointConfig,
  // USD per 1M input, cached input and output tokens, standard and batch, per public model:
  // what records and usage show as cost (docs/cost.md). Defaults: OpenAI's list prices.
  MODEL_PRICES: modelPrices,
  MODEL_TIMEOUT_MS: int(120_000, 1000),
  // What a server that is not OpenAI's can do is probed on first use (docs/models.md) and kept
  // this long for every process; a probe call waits this long for its answer.
  MODEL_PROBE_TTL_SECONDS: int(86_400, 1),
  MODEL_PROBE_TIMEOUT_MS: int(120_000, 1000),
  // A call's deadline is MODEL_TIMEOUT_MS plus this per thousand prompt tokens: a local server
  // on a CPU reads a long prompt for minutes (docs/models.md#slow-servers).
  MODEL_TIMEOUT_PER_1K_TOKENS_MS: int(1_000),
  // How long a call waits for a server answering 503 while it loads its model.
  MODEL_LOAD_WAIT_MS: int(300_000),
  MODEL_MAX_RETRIES: int(1),
  MODEL_MAX_INPUT_TOKENS: int(120_000, 1000),
  // Cost ceilings per extraction (docs/security.md#cost-bounds): estimated input tokens over all
  // its calls, and model calls (chunks, repairs, continuations). A source past either fails as
  // SOURCE_TOO_LARGE before a token is spent; pages are bounded by MAX_PDF_PAGES.
  MAX_INPUT_TOKENS_PER_EXTRACTION: int(1_000_000, 1000),
  MAX_MODEL_CALLS_PER_EXTRACTION: int(64, 1),
  MODEL_CHUNK_CONCURRENCY: int(4, 1),
  // Model calls in flight in this process, across all jobs: a slow provider cannot make
  // requests (and the sources they carry) pile up without bound.
  MODEL_MAX_IN_FLIGHT: int(32, 1),
  // Calls at once to a model whose server tells no slots and no maxInFlight is set: learned
  // from its latency for every worker, starting here, never outside min..max (docs/models.md#slow-servers).
  MODEL_LEARNED_SLOTS_START: int(1, 1),
  MODEL_LEARNED_SLOTS_MIN: int(1, 1),
  MODEL_LEARNED_SLOTS_MAX: int(16, 1),
  MODEL_MAX_REPAIRS: int(2),
  // Calls that continue an answer the output limit cut off inside a list (docs/citations.md);
  // past them the list is reported as OUTPUT_TRUNCATED.
  MODEL_MAX_CONTINUATIONS: int(8),
  // `auto`: send prompt_cache_key only to api.openai.com (strict compatible servers may refuse it).
  MODEL_PROMPT_CACHE_KEY: z.enum(['auto', 'true', 'false']).default('auto'),
  // Batch priority (docs/batch.md): the window a batch extraction is answered in (what is left
  // near its end goes out as standard calls), how often a batch at the provider is looked at,
  // and `off` for a provider without a batch interface (`auto` finds out on the first 404).
  BATCH_WINDOW_HOURS: z.coerce.number().positive().default(24),
  BATCH_POLL_MS: int(60_000, 10),
  BATCH_INTERFACE: z.enum(['auto', 'off']).default('auto'),

  // Jobs in flight per process: model calls are I/O-bound, so many at once is the point.
  WORKER_CONCURRENCY: int(100, 1),
  // CPU-bound preparation (PDF rasterising, images) runs in this many processes.
  PREP_THREADS: int(Math.max(1, os.availableParallelism()), 1),
  // A preparation task (one PDF or image) running longer is abandoned and its process replaced.
  PREP_TIMEOUT_MS: int(120_000, 1000),
  PREP_THREAD_HEAP_MB: int(1024, 64),
  // All the memory one preparation process may have, heap and native (prlimit's data bound): a
  // task past it fails SOURCE_TOO_LARGE and its process is replaced. Node counts about 600 MiB
  // against it before loading anything; 0 runs the processes unbounded (no prlimit: macOS).
  PREP_MEMORY_MB: z.coerce
    .number()
    .int()
    .refine((mb) => mb === 0 || mb >= 1024, 'is 0 (no bound) or at least 1024')
    .default(3072),
  // Tesseract's deadline per scanned page or image, read only when citations are asked for
  // (docs/citations.md); past it the page's values are reported as not found.
  OCR_TIMEOUT_MS: int(30_000, 1000),
  // Tesseract's languages, `+`-joined (`eng+jpn`): each needs its Debian package
  // (tesseract-ocr-jpn, -chi-sim, -kor). Only English by default: every language added slows
  // each scanned page down, and a script the page does not use can misread it.
  OCR_LANGUAGES: z
    .string()
    .regex(
      /^[a-z]{3}(?:_[a-z]+)?(?:\+[a-z]{3}(?:_[a-z]+)?)*$/,
      'is a + list of Tesseract languages',
    )
    .default('eng'),
  // Reading a text source (HTML to Markdown, paragraphs) is linear in its length: a megabyte
  // takes well under a second, so a text still being read after this is hostile, not retried.
  PREP_TEXT_TIMEOUT_MS: int(30_000, 1000),
  // Pages rendered at once in this process's Chromium.
  RENDER_CONCURRENCY: int(4, 1),
  JOB_TIMEOUT_MS: int(10 * 60_000, 1000),
  // A job's lock, renewed every half of it while the job runs. A killed worker's jobs run again
  // once the lock lapses and a stalled check notices: within LOCK + STALLED ≈ 30 s. Shorter
  // locks mean a blocked event loop (longer than the lock) gets its job run twice (never
  // charged twice), so the lock stays well above any synchronous stretch of work.
  LOCK_DURATION_MS: int(20_000, 1_000),
  // The event loop counts as blocked (the worker's /healthz and /readyz fail) once it has gone
  // this long without turning: well under the lock, so the health check sees it first.
  EVENT_LOOP_BLOCKED_MS: int(5_000, 50),
  // How often a worker looks for jobs whose worker died (their lock lapsed) to run them again.
  STALLED_INTERVAL_MS: int(10_000, 500),
  RECONCILE_INTERVAL_MS: int(15_000, 500),
  // Rows younger than this are left alone: their API request may still be enqueueing them.
  RECONCILE_AFTER_MS: int(15_000, 0),
  // A `processing` row whose job is gone or finished is given a new job after this long.
  RECONCILE_STALE_MS: int(30_000, 0),
  // On SIGTERM: how long running jobs may take to finish before they are handed back.
  WORKER_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).default(20),

  // Webhook deliveries (docs/webhooks.md): jobs in flight per process; 0 runs no delivery
  // workers and no relay here, for processes meant only for extractions.
  WEBHOOK_CONCURRENCY: int(50),
  // Of those, how many one account's deliveries may hold at once, so receivers that hang
  // cannot take every slot from the other accounts' events.
  WEBHOOK_CONCURRENCY_PER_ACCOUNT: int(10, 1),
  WEBHOOK_TIMEOUT_MS: int(10_000, 100),
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .default(DEFAULT_RETRY_DELAYS)
    .transform((spec, ctx) => {
      try {
        const delays = parseRetryDelays(spec);
        if (delays.length > 0) return delays;
        ctx.addIssue({ code: 'custom', message: 'must list at least one delay' });
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
      return z.NEVER;
    }),
  WEBHOOK_RELAY_INTERVAL_MS: int(1_000, 10),
  MAX_PDF_BYTES: int(50 * MiB, 1),
  MAX_IMAGE_BYTES: int(20 * MiB, 1),
  MAX_HTML_BYTES: int(10 * MiB, 1),
  // An email (docs/sources.md#email): its download cap; the MIME parts and attachments of the
  // whole message, nested messages included (past it SOURCE_TOO_LARGE, before the model); the
  // images (attached or inline) sent to the model, past which the rest are listed, not read.
  MAX_EMAIL_BYTES: int(50 * MiB, 1),
  MAX_EMAIL_PARTS: int(200, 1),
  MAX_EMAIL_IMAGES: int(20, 0),
  // Spreadsheets (docs/sources.md#spreadsheets): the download cap of one fetched from a URL, and
  // the cells with a value a workbook may have (counted in the file before it is parsed).
  MAX_SPREADSHEET_BYTES: int(20 * MiB, 1),
  MAX_SHEET_CELLS: int(200_000, 1),
  // A ZIP-based file (XLSX, ODS, DOCX, PPTX, ODT, ODP) is measured before any parser or
  // LibreOffice sees it (expansion bombs): what its entries expand to together, how many there
  // are, and how far one large entry expands.
  MAX_ARCHIVE_EXPANDED_BYTES: int(100 * MiB, 1),
  MAX_ARCHIVE_ENTRIES: int(10_000, 1),
  MAX_ARCHIVE_RATIO: int(200, 1),
  // Uploaded bytes are removed this long after their extraction finished (docs/uploads.md);
  // the row and its file description stay. Fractions allowed (0.5 = 30 minutes).
  UPLOAD_RETENTION_HOURS: z.coerce.number().min(0).default(24),
  // Files read before are not read again (docs/reuse.md#preparations): the largest preparation
  // kept, and what one account's may take in all (the oldest go first; 0 keeps none). They are
  // kept no longer than uploaded bytes, UPLOAD_RETENTION_HOURS.
  PREP_CACHE_MAX_ENTRY_BYTES: int(16 * MiB, 0),
  PREP_CACHE_ACCOUNT_BYTES: int(256 * MiB, 0),
  // Stored bytes no extraction references are removed once this old (an upload in flight in a
  // store that writes before the row commits is younger than this).
  UPLOAD_ORPHAN_GRACE_MINUTES: z.coerce.number().min(0).default(60),
  // How often each worker process runs the upload sweep.
  UPLOAD_SWEEP_INTERVAL_MS: int(300_000, 100),
  FETCH_TIMEOUT_MS: int(30_000, 100),
  PAGE_TIMEOUT_MS: int(45_000, 100),
  NETWORK_IDLE_MS: int(500, 0),
  MAX_REDIRECTS: int(10),
  // Pages read at all (checked before any work), and pages sent as images (docs/api.md#limits: 100).
  MAX_PDF_PAGES: int(1000, 1),
  // A pdf or document longer than this is worked as page windows of this many pages, each its
  // own job that any worker process takes (docs/scaling.md#one-large-document).
  SPLIT_PAGES: int(40, 1),
  // A bundle split into its documents (docs/split.md) is classified in calls of at most this
  // many pages each, all at once through the model client's scheduler.
  SPLIT_CLASSIFY_PAGES: int(40, 1),
  MAX_PDF_IMAGE_PAGES: int(100, 0),
  MAX_IMAGE_PIXELS: int(50_000_000, 1),
  PDF_MODE: z.enum(['auto', 'text', 'images']).default('auto'),
  CHROMIUM_PATH: z.string().optional(),
  // Who Chromium runs as when the worker runs as root (docs/security.md#browser-isolation): an
  // unprivileged account, so its sandbox can start and a compromised renderer is nobody. Unset:
  // `nobody`. Set for a worker that is not root, it cannot be applied, and start-up says so.
  BROWSER_USER: z.string().min(1).optional(),
  BROWSER_MAX_PAGES: int(100, 1),
  // LibreOffice (docs/sources.md#documents-and-presentations) lays documents out as PDFs and
  // rewrites XLS and ODS spreadsheets as XLSX, isolated like the browser
  // (docs/security.md#document-converter-isolation): as CONVERTER_USER when the worker is root,
  // without network, its address space bounded, killed with all it started at its deadline.
  CONVERTER_PATH: z.string().optional(),
  // Unset: `nobody`; like BROWSER_USER, applied only by a worker running as root.
  CONVERTER_USER: z.string().min(1).optional(),
  // Set by the helper launcher (docs/security.md#the-helper-launcher) for the worker it starts:
  // its socket. The worker then runs as `node` and has Chromium and LibreOffice started by it,
  // as BROWSER_USER and CONVERTER_USER (a list: a user per conversion at once).
  HELPER_LAUNCHER: z.string().min(1).optional(),
  CONVERT_TIMEOUT_MS: int(60_000, 1000),
  CONVERT_MAX_MEMORY_MB: int(3072, 256),
  // Each conversion is a LibreOffice process of a few hundred MiB and a core while it runs.
  CONVERT_CONCURRENCY: int(2, 1),
  // Where no network namespace can be made (a container's default seccomp profile refuses
  // unshare), `true` refuses to convert rather than let LibreOffice share the worker's network.
  // `auto`: `true` in production (the image sets NODE_ENV=production), `false` elsewhere.
  CONVERT_REQUIRE_ISOLATION: z.enum(['auto', 'true', 'false']).default('auto'),
  MAX_DOCUMENT_BYTES: int(50 * MiB, 1),
});

// Checked apart from the fields so the object stays one plain schema to read.
const checked = configSchema
  .refine((c) => c.WORKER_METRICS_PORT === 0 || c.WORKER_METRICS_PORT + c.WORKER_INDEX <= 65535, {
    path: ['WORKER_INDEX'],
    message: 'WORKER_METRICS_PORT + WORKER_INDEX must be a port (at most 65535)',
  })
  .refine(
    (c) =>
      c.MODEL_LEARNED_SLOTS_MIN <= c.MODEL_LEARNED_SLOTS_START &&
      c.MODEL_LEARNED_SLOTS_START <= c.MODEL_LEARNED_SLOTS_MAX,
    {
      path: ['MODEL_LEARNED_SLOTS_START'],
      message: 'MODEL_LEARNED_SLOTS_MIN <= MODEL_LEARNED_SLOTS_START <= MODEL_LEARNED_SLOTS_MAX',
    },
  )
  .transform((c) => ({
    ...c,
    CONVERT_REQUIRE_ISOLATION:
      c.CONVERT_REQUIRE_ISOLATION === 'auto'
        ? c.NODE_ENV === 'production'
        : c.CONVERT_REQUIRE_ISOLATION === 'true',
  }));

/** The settings, and the models they serve with each one's endpoint (docs/models.md). */
export type WorkerConfig = z.infer<typeof checked> & { models: ModelRegistry };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const config = parseEnv(checked, env);
  const models = registryFromSettings(config, env, true);
  const unknown = unknownPricedModels(config.MODEL_PRICES, models.names);
  if (unknown.length > 0)
    throw new Error(
      `Invalid configuration:\n  MODEL_PRICES: ${unknown.join(', ')}: not a public model (${models.names.join(', ')})`,
    );
  return { ...config, models };
}

/** The port this worker's operational endpoints listen on; undefined when they are off. */
export function opsPort(config: WorkerConfig): number | undefined {
  return config.WORKER_METRICS_PORT === 0
    ? undefined
    : config.WORKER_METRICS_PORT + config.WORKER_INDEX;
}

/**
 * The process's environment as it is, for the consumers that filter it themselves: Chromium's
 * launch, which passes on only harmless variables (sources/webpage/browser/environment.ts), and
 * the helper launcher, which hands it to the worker it starts.
 */
export function processEnvironment(): Readonly<Record<string, string | undefined>> {
  return { ...process.env };
}

/**
 * What the helper launcher (root, before the worker starts) reads of the worker's settings: the
 * programs it may start and as whom, and how to log. Only these, validated as the worker will:
 * the rest is the worker's to validate once it runs, unprivileged.
 */
export function launcherSettings(env: NodeJS.ProcessEnv) {
  return parseEnv(
    configSchema.pick({
      LOG_LEVEL: true,
      LOG_FORMAT: true,
      NODE_ENV: true,
      CONVERTER_USER: true,
      BROWSER_USER: true,
      CHROMIUM_PATH: true,
      CONVERTER_PATH: true,
    }),
    env,
  );
}
