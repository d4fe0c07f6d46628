import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { workspaces } from '../../db/schema.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { escapeHtml } from '../mail/html.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { ownerAddresses } from '../workspaces/members.ts';
import type { WebhookRow } from './webhooks.ts';

/**
 * The e-mail to an owner of a workspace whose webhooks were disabled by a member's removal or
 * demotion: which webhooks, why, and the link to re-enable them (Settings → Alerts).
 */
export function webhooksDisabledMail(notice: {
  to: string;
  workspaceName: string;
  reason: string;
  urls: string[];
  link: string;
}): MailMessage {
  const { to, workspaceName, reason, urls, link } = notice;
  const one = urls.length === 1;
  const subject = one
    ? `A webhook of ${workspaceName} was disabled`
    : `${urls.length} webhooks of ${workspaceName} were disabled`;
  const [what, them, their] = one ? ['this webhook', 'it', 'its'] : ['these webhooks', 'them', 'their'];
  const after = `${one ? 'It gets' : 'They get'} no scan alerts until an admin or owner re-enables ${them}.`;
  const text = [
    `DangleWatch disabled ${what} of the workspace ${workspaceName}: ${reason}.`,
    '',
    ...urls.map((url) => `  ${url}`),
    '',
    after,
    `If the workspace still trusts ${their} address, re-enable ${them} in Settings → Alerts: ${link}`,
    `Otherwise remove ${them} there.`,
  ].join('\n');
  const html = `<p>DangleWatch disabled ${what} of the workspace <strong>${escapeHtml(workspaceName)}</strong>: ${escapeHtml(reason)}.</p>
<ul>${urls.map((url) => `<li><code>${escapeHtml(url)}</code></li>`).join('')}</ul>
<p>${after} If the workspace still trusts ${their} address, <a href="${escapeHtml(link)}">re-enable ${them} in Settings → Alerts</a>; otherwise remove ${them} there.</p>`;
  return { to, subject, text, html };
}

/**
 * Tells each owner of each workspace concerned, one e-mail each, which of its webhooks were just
 * disabled and why (one change disabled them, so for one reason), linking to Settings → Alerts.
 */
export async function mailWebhooksDisabled(
  db: Db,
  mailer: Mailer,
  hooks: WebhookRow[],
  publicUrl: string,
): Promise<void> {
  for (const workspaceId of new Set(hooks.map((hook) => hook.workspaceId))) {
    const disabled = hooks.filter((hook) => hook.workspaceId === workspaceId);
    const reason = disabled[0]?.disabledReason;
    const [workspace] = await db
      .select({ name: workspaces.name })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId));
    if (!reason || !workspace) continue;
    const link = dashboardLink(publicUrl, '/dashboard', { section: 'settings', tab: 'alerts' }, workspaceId);
    for (const to of await ownerAddresses(db, workspaceId)) {
      await mailer.send(
        webhooksDisabledMail({
          to,
          workspaceName: workspace.name,
          reason,
          urls: disabled.map((hook) => hook.url),
          link,
        }),
      );
    }
  }
}
