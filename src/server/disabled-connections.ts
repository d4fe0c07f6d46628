import type { Context } from 'hono';
import type { DisabledConnection } from '../core/connections/answerable.ts';
import { mailConnectionsDisabled } from '../core/connections/disabled-mail.ts';
import type { Mailer } from '../core/mail/mailer.ts';
import type { Db } from '../db/client.ts';
import type { AppEnv } from './env.ts';

/**
 * Mails the owners which connections (webhooks, integrations, DNS connections, cloud accounts) a
 * member's removal, leaving, demotion or account deletion just disabled (none: nothing is sent). A
 * mail that fails is logged: they stay disabled, and each Settings tab says why, which is all the
 * mail points to.
 */
export async function tellOwnersOfDisabledConnections<E extends AppEnv>(
  c: Context<E>,
  db: Db,
  deps: { mailer?: Mailer; publicUrl?: string },
  disabled: DisabledConnection[],
): Promise<void> {
  if (!disabled.length || !deps.mailer) return;
  try {
    await mailConnectionsDisabled(db, deps.mailer, disabled, deps.publicUrl ?? new URL(c.req.url).origin);
  } catch (error) {
    c.get('logger').warn({ err: error }, 'disabled-connection e-mail not sent');
  }
}
