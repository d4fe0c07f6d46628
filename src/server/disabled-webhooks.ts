import type { Context } from 'hono';
import type { Mailer } from '../core/mail/mailer.ts';
import { mailWebhooksDisabled } from '../core/webhooks/disabled-mail.ts';
import type { WebhookRow } from '../core/webhooks/webhooks.ts';
import type { Db } from '../db/client.ts';
import type { AppEnv } from './env.ts';

/**
 * Mails the owners which webhooks a member's removal, leaving, demotion or account deletion just
 * disabled (none: nothing is sent). A mail that fails is logged: the webhooks stay disabled, and
 * Settings → Alerts says why, which is all the mail points to.
 */
export async function tellOwnersOfDisabledWebhooks<E extends AppEnv>(
  c: Context<E>,
  db: Db,
  deps: { mailer?: Mailer; publicUrl?: string },
  hooks: WebhookRow[],
): Promise<void> {
  if (!hooks.length || !deps.mailer) return;
  try {
    await mailWebhooksDisabled(db, deps.mailer, hooks, deps.publicUrl ?? new URL(c.req.url).origin);
  } catch (error) {
    c.get('logger').warn({ err: error }, 'disabled-webhook e-mail not sent');
  }
}
