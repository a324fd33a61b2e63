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

export interface Schema {
  id: string;
  name: string;
  description: string | null;
  structure: unknown;
  createdAt: string;
  updatedAt: string;
}

export type ExtractionStatus = 'pending' | 'processing' | 'completed' | 'failed';
export const STATUSES: ExtractionStatus[] = ['pending', 'processing', 'completed', 'failed'];

export interface FileInfo {
  name: string;
  size: number;
  contentType: string;
  sha256: string;
  /** Present once the bytes were removed after the retention period. */
  removedAt?: string;
}

export interface ExtractionError {
  code: string;
  message: string;
}

/** `GET /extractions` rows. */
export interface ExtractionListRecord {
  id: string;
  createdAt: string;
  charged: boolean;
  input: { schema_id: string; type: string; source: string; instruction?: string; file?: FileInfo };
  output: unknown;
  status: ExtractionStatus;
  totalTokens: string;
  error: ExtractionError | null;
  metadata?: Record<string, string> | null;
}

/** `GET /extractions/{id}`. */
export interface ExtractionRecord {
  id: string;
  schemaId: string;
  source: { type: string; content: string; file?: FileInfo };
  result: unknown;
  status: ExtractionStatus;
  createdAt: string;
  updatedAt: string;
  totalTokens: number;
  charged: boolean;
  error: ExtractionError | null;
  metadata?: Record<string, string> | null;
}

export interface UsageDay {
  date: string;
  extractions: number;
  charged: number;
  failed: number;
  tokens: number;
}

export interface Usage {
  startDate: string;
  endDate: string;
  days: UsageDay[];
  totals: Omit<UsageDay, 'date'>;
}

export const WEBHOOK_EVENTS = ['extraction.completed', 'extraction.failed'] as const;

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  createdAt: string;
  secret?: string;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  type: string;
  attempt: number;
  status: 'pending' | 'delivered' | 'failed';
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
}
