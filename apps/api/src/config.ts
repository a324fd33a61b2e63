import os from 'node:os';
import path from 'node:path';
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
  registryFromSettings,
  singleEndpointConfig,
  type ModelRegistry,
} from '@xt/model';
import { trustProxySetting } from './http/requests/trust-proxy.ts';

/**
 * The API's configuration, read once from the environment at start-up. Every bad variable is
 * reported by name in one message, so a misconfigured deploy fails loudly and early.
 */
export const configSchema = z.object({
  ...baseConfig,
  ...jobPolicyConfig,
  ...sourceLimitsConfig,
  ...reuseConfig,
  ...modelEndpointsConfig,
  // Read to list the single endpoint's models with what it was found to support; the API never
  // calls a model, so OPENAI_API_KEY is not read here.
  OPENAI_BASE_URL: singleEndpointConfig.OPENAI_BASE_URL,
  MODEL_MAP: singleEndpointConfig.MODEL_MAP,
  MODEL_ENDPOINT_KIND: singleEndpointConfig.MODEL_ENDPOINT_KIND,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  // How long an authenticated API key is trusted without a database look-up; revocations reach
  // every process at once through LISTEN/NOTIFY regardless. 0 turns the cache off.
  KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(60),
  TRUST_PROXY: trustProxySetting,
  ADMIN_USER: z.string().min(1).optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  // Where people reach the dashboard, behind TLS-terminating proxies (`https://extract.example.com`):
  // the origin the Origin check expects, and https there makes the session cookie Secure and
  // `__Host-` prefixed. Unset: the request's own protocol and Host decide.
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .transform((u) => new URL(u).origin)
    .optional(),
  // The queue board only shows unless this is `true`: retrying, promoting or removing jobs by
  // hand bypasses the extraction rows' own state machine.
  ADMIN_QUEUES_WRITABLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  // Wrong queue-board passwords one client address may send per 15 minutes, per API process.
  ADMIN_AUTH_MAX_FAILURES: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  // Requests per account per window, all its keys and sessions together: new keys buy no more.
  RATE_LIMIT_ACCOUNT_MAX: z.coerce.number().int().min(1).default(1200),
  // What one account may hold at once (docs/security.md#fair-use); past it 429 TOO_MANY_ACTIVE.
  MAX_KEYS_PER_ACCOUNT: z.coerce.number().int().min(1).default(50),
  MAX_WEBHOOKS_PER_ACCOUNT: z.coerce.number().int().min(1).default(20),
  MAX_SCHEMAS_PER_ACCOUNT: z.coerce.number().int().min(1).default(1000),
  MAX_ACTIVE_EXTRACTIONS_PER_ACCOUNT: z.coerce.number().int().min(1).default(5000),
  EXTRACTION_WAIT_SECONDS: z.coerce.number().min(0).max(300).default(55),
  // A schema suggestion waits for both of its rounds of model calls (docs/api.md#suggest-a-schema);
  // past this it answers 503 with Retry-After, and a repeat reuses the calls that finished.
  SUGGEST_WAIT_SECONDS: z.coerce.number().int().min(1).max(300).default(120),
  MAX_TEXT_CHARS: z.coerce.number().int().min(1).default(1_000_000),
  // Largest JSON or urlencoded create body (413 past it). These are parsed in memory (several
  // times their size while parsed), so they are capped well below danger: twenty at once stay
  // under a GiB. Larger files go as multipart, which streams to disk (MAX_UPLOAD_BYTES).
  MAX_JSON_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(8 * 1024 * 1024),
  // Where file parts wait between arriving and being stored (never named by the client).
  UPLOAD_TMP_DIR: z.string().min(1).default(path.join(os.tmpdir(), 'xt-uploads')),
  // Uploads copied into the database at once by this process; the rest wait their turn with
  // their bytes on disk. Each holds a pooled connection for the whole copy, so this stays below
  // DB_POOL_MAX (default: half of it) and leaves connections for every other request.
  UPLOAD_STORE_CONCURRENCY: z.coerce.number().int().min(1).optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).default(10),
  // The dashboard (docs/dashboard.md).
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(12),
  SESSION_MAX_DAYS: z.coerce.number().positive().default(7),
  SIGNIN_MAX_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  SIGNIN_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  // Attempts per email from all addresses it never signed in from, per window: bounds a guesser
  // who rotates addresses without locking the owner out of an address they used before.
  SIGNIN_MAX_PER_EMAIL_GLOBAL: z.coerce.number().int().min(1).default(50),
  SIGNIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Where the built dashboard is; default: the @xt/dashboard workspace's dist/. */
  DASHBOARD_ASSETS_DIR: z.string().min(1).optional(),
  // Clients are promised at least a day to retry with the same key (docs/idempotency.md).
  IDEMPOTENCY_KEY_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(24)
    .max(24 * 365)
    .default(24),
  IDEMPOTENCY_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(600),
});

/** The settings, and the public model names they serve (checked on create, listed by /v1/models). */
export type ApiConfig = z.infer<typeof configSchema> & { models: ModelRegistry };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const config = parseEnv(configSchema, env);
  return { ...config, models: registryFromSettings(config, env, false) };
}
