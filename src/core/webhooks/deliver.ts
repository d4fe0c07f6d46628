import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { AllowPrivate } from '../../connectors/http/address-guard.ts';
import { request } from '../../connectors/http/client.ts';
import { ConnectorError } from '../../connectors/http/error.ts';
import type { Db } from '../../db/client.ts';
import { webhookDeliveries, webhooks } from '../../db/schema.ts';
import { discordMessage, teamsMessage } from './chat-messages.ts';
import { checkWebhookTarget } from './target.ts';

/** Attempts per delivery: the first and three retries (pg-boss spaces them with a growing delay). */
export const WEBHOOK_ATTEMPTS = 4;
const TIMEOUT_MS = 10_000;

/** `X-DangleWatch-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
function signatureHeader(secret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;
}

/** A Slack incoming-webhook message from our payload: one line per change. */
function slackBody(payload: Record<string, unknown>): Record<string, unknown> {
  const text = typeof payload.text === 'string' ? payload.text : 'DangleWatch';
  return { text };
}

type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'gone';

/**
 * One attempt to deliver: the URL is checked again (DNS may have changed since it was saved), the
 * connection goes to the checked address only, redirects are not followed. 'retry' asks the queue
 * to try again later; after the last attempt the delivery is 'failed', and the log says why.
 */
export async function deliverWebhook(
  db: Db,
  deliveryId: string,
  options: { allowPrivate?: AllowPrivate; resolvers?: string[]; logger: Logger },
): Promise<DeliveryOutcome> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, hook: webhooks })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (row?.delivery.status !== 'pending') return 'gone';
  const attempt = row.delivery.attempts + 1;
  const record = async (fields: {
    status?: string;
    responseStatus?: number | null;
    error?: string | null;
  }) => {
    await db
      .update(webhookDeliveries)
      .set({ attempts: attempt, updatedAt: sql`now()`, ...fields })
      .where(eq(webhookDeliveries.id, deliveryId));
  };
  const fail = async (error: string, responseStatus: number | null = null): Promise<DeliveryOutcome> => {
    const last = attempt >= WEBHOOK_ATTEMPTS;
    const message = last ? `Gave up after ${attempt} attempts: ${error}` : error;
    await record({ status: last ? 'failed' : 'pending', responseStatus, error: message });
    options.logger.warn(
      { deliveryId, attempt, error },
      last ? 'webhook delivery failed for good' : 'webhook delivery failed',
    );
    return last ? 'failed' : 'retry';
  };

  if (row.hook.disabledAt) {
    // Queued before it was disabled: nothing goes out, and the log says why.
    await record({ status: 'failed', error: `The webhook was disabled: ${row.hook.disabledReason}` });
    return 'failed';
  }
  const target = await checkWebhookTarget(row.hook.url, options.allowPrivate ?? false, options.resolvers);
  if (!target.ok) {
    // A refused address will not become acceptable by waiting.
    await record({ status: 'failed', error: target.message });
    options.logger.warn({ deliveryId, reason: target.message }, 'webhook delivery refused');
    return 'failed';
  }
  const body = JSON.stringify(
    row.hook.format === 'slack'
      ? slackBody(row.delivery.payload)
      : row.hook.format === 'teams'
        ? teamsMessage(row.delivery.payload)
        : row.hook.format === 'discord'
          ? discordMessage(row.delivery.payload)
          : row.delivery.payload,
  );
  try {
    // Through the connectors' client: the name checked again, the connection made to the address
    // checked, redirects not followed, the receiver's answer unread.
    const response = await request({
      provider: 'Webhook endpoint',
      url: target.url.href,
      method: 'POST',
      userHost: { resolvers: options.resolvers ?? [], allowPrivate: options.allowPrivate ?? false },
      timeoutMs: TIMEOUT_MS,
      readBody: false,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'DangleWatch-Webhook/1',
        'x-danglewatch-event': row.delivery.kind,
        'x-danglewatch-delivery': deliveryId,
        'x-danglewatch-signature': signatureHeader(row.hook.secret, body),
      },
      body,
    });
    if (response.status >= 200 && response.status < 300) {
      await record({ status: 'delivered', responseStatus: response.status, error: null });
      return 'delivered';
    }
    return await fail(`the endpoint answered HTTP ${response.status}`, response.status);
  } catch (error) {
    return await fail(
      error instanceof ConnectorError ? error.full : error instanceof Error ? error.message : String(error),
    );
  }
}
