/** The records the API answers with (docs/api.md), as far as the pages use them. */
export interface User {
  id: string;
  email: string;
  account: string;
}

export interface SessionView {
  user: User;
  csrfToken: string;
}

export interface ApiKey {
  id: string;
  label: string | null;
  displayPrefix: string;
  scope: 'read' | 'write';
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/*
 * The API's wire types come from the SDK, whose declarations a compile-time test holds to what
 * the service serialises: the dashboard shows the same records and cannot drift from them.
 */
export type {
  ExtractionStatus,
  Schema,
  UploadedFile as FileInfo,
  ExtractionError,
  ExtractionListItem as ExtractionListRecord,
  Extraction as ExtractionRecord,
  WebhookEndpointWithSecret,
  WebhookDelivery,
  Citation,
  ExtractionWarning,
  Model,
  SchemaConversion,
  SchemaSuggestion,
  SplitPages,
  SplitRequest,
} from '@xt/sdk';
import type {
  ExtractionStatus,
  WebhookEndpoint as SdkWebhookEndpoint,
  WebhookEventType,
} from '@xt/sdk';

// The dashboard API's own answers (not part of the public API, so not in the SDK).
export type { ExtractionReview, SheetExcerpt, Usage, UsageDay } from '@xt/contract';

export const STATUSES: ExtractionStatus[] = ['pending', 'processing', 'completed', 'failed'];

export const WEBHOOK_EVENTS = [
  'extraction.completed',
  'extraction.failed',
  'extraction.reviewed',
] as const satisfies readonly WebhookEventType[];

/** What a new endpoint is subscribed to until the form says otherwise: the final states. */
export const DEFAULT_WEBHOOK_EVENTS: WebhookEventType[] = [
  'extraction.completed',
  'extraction.failed',
];

/** As listed; `secret` only in the answer that created or rotated it. */
export type WebhookEndpoint = SdkWebhookEndpoint & { secret?: string };
