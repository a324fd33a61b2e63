import { checkWebhooks } from '../http/limits/account-bounds.ts';
import { eq } from 'drizzle-orm';
import { notFound } from '../http/errors/errors.ts';
import type { ListQuery } from '../http/listing/list-query.ts';
import { webhookAttempts, webhookEndpoints, type Db, type WebhookEndpointRow } from '@xt/db';
import {
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  newWebhookSecret,
  updateEndpoint,
} from '@xt/webhooks';
import { listConditions, listPage, type ListColumns } from '../http/listing/list-page.ts';
import type { EndpointInput } from './body.ts';

const COLUMNS: ListColumns = {
  accountId: webhookEndpoints.accountId,
  createdAt: webhookEndpoints.createdAt,
  id: webhookEndpoints.id,
  searchOn: webhookEndpoints.url,
};

const ATTEMPT_COLUMNS: ListColumns = {
  accountId: webhookAttempts.accountId,
  createdAt: webhookAttempts.createdAt,
  id: webhookAttempts.id,
  searchOn: webhookAttempts.type,
};

/**
 * Webhook endpoints, always scoped to the caller's account: others' endpoints do not exist. The
 * rows are packages/webhooks' (endpoints.ts); the API reads them itself only for its list pages.
 */
export class WebhookService {
  constructor(
    private readonly db: Db,
    /** Endpoints one account may have (MAX_WEBHOOKS_PER_ACCOUNT): each receives every event. */
    private readonly maxEndpoints: number,
  ) {}

  async create(accountId: string, input: EndpointInput): Promise<WebhookEndpointRow> {
    await checkWebhooks(this.db, accountId, this.maxEndpoints);
    return createEndpoint(this.db, accountId, { ...input, secret: newWebhookSecret() });
  }

  async get(accountId: string, id: string): Promise<WebhookEndpointRow> {
    const row = await findEndpoint(this.db, accountId, id);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  list(accountId: string, q: ListQuery) {
    return listPage(this.db, webhookEndpoints, COLUMNS, listConditions(COLUMNS, accountId, q), q);
  }

  /** A new secret replaces the old one at once: the old one no longer verifies anything sent. */
  rotateSecret(accountId: string, id: string): Promise<WebhookEndpointRow> {
    return this.update(accountId, id, { secret: newWebhookSecret() });
  }

  /** Every delivery attempt to one endpoint, newest first. */
  async deliveries(accountId: string, id: string, q: ListQuery) {
    await this.get(accountId, id);
    const where = listConditions(ATTEMPT_COLUMNS, accountId, q, [
      eq(webhookAttempts.endpointId, id),
    ]);
    return listPage(this.db, webhookAttempts, ATTEMPT_COLUMNS, where, q);
  }

  async update(
    accountId: string,
    id: string,
    patch: Partial<EndpointInput> & { secret?: string },
  ): Promise<WebhookEndpointRow> {
    const row = await updateEndpoint(this.db, accountId, id, patch);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  /** Deliveries still queued for it find no endpoint and stop. */
  async delete(accountId: string, id: string): Promise<void> {
    if (!(await deleteEndpoint(this.db, accountId, id))) throw notFound('Webhook endpoint');
  }
}
