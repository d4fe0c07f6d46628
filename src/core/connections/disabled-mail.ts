import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users, workspaceMembers, workspaces } from '../../db/schema.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { escapeHtml } from '../mail/html.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import type { DisabledConnection } from './answerable.ts';
import { KINDS } from './kinds.ts';

/** The addresses of the workspace's owners, who hear of what happens to its connections. */
async function ownerAddresses(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')));
  return rows.flatMap((row) => (row.email ? [row.email] : []));
}

/** How the mail names what was disabled: "A webhook", "3 integrations", "4 connections". */
function counted(disabled: DisabledConnection[]): { one: boolean; words: string } {
  const kinds = new Set(disabled.map((item) => item.kind));
  const [only] = kinds;
  const one = disabled.length === 1;
  if (one && only) {
    const noun = KINDS[only].noun;
    return { one, words: `${/^[aeiou]/i.test(noun) ? 'An' : 'A'} ${noun}` };
  }
  return {
    one,
    words: `${disabled.length} ${kinds.size === 1 && only ? KINDS[only].plural : 'connections'}`,
  };
}

/**
 * The e-mail to an owner of a workspace whose connections were disabled by a member's leaving,
 * removal, demotion or account deletion: which ones, why, and where each kind is re-enabled.
 */
export function connectionsDisabledMail(notice: {
  to: string;
  workspaceName: string;
  disabled: DisabledConnection[];
  links: { tabName: string; link: string }[];
}): MailMessage {
  const { to, workspaceName, disabled, links } = notice;
  const reason = disabled[0]?.reason ?? '';
  const { one, words } = counted(disabled);
  const subject = `${words} of ${workspaceName} ${one ? 'was' : 'were'} disabled`;
  const what = one ? words.replace(/^A/, 'a') : words;
  const them = one ? 'it' : 'them';
  const lines = disabled.map((item) => `${KINDS[item.kind].noun}: ${item.name}`);
  const after = `Nothing is sent or read through ${them} until an admin or owner re-enables ${them}.`;
  const text = [
    `DangleWatch disabled ${what} of the workspace ${workspaceName}: ${reason}.`,
    '',
    ...lines.map((line) => `  ${line}`),
    '',
    after,
    `If the workspace still trusts ${them}, re-enable ${them} (or otherwise remove ${them}) in:`,
    ...links.map(({ tabName, link }) => `  ${tabName}: ${link}`),
  ].join('\n');
  const html = `<p>DangleWatch disabled ${what} of the workspace <strong>${escapeHtml(workspaceName)}</strong>: ${escapeHtml(reason)}.</p>
<ul>${lines.map((line) => `<li><code>${escapeHtml(line)}</code></li>`).join('')}</ul>
<p>${after} If the workspace still trusts ${them}, re-enable ${them} (or otherwise remove ${them}) in ${links
    .map(({ tabName, link }) => `<a href="${escapeHtml(link)}">${escapeHtml(tabName)}</a>`)
    .join(', ')}.</p>`;
  return { to, subject, text, html };
}

/**
 * Tells each owner of each workspace concerned, one e-mail each, which of its connections (of every
 * kind) were just disabled and why (one change disabled them, so for one reason), linking to the
 * Settings tab of each kind.
 */
export async function mailConnectionsDisabled(
  db: Db,
  mailer: Mailer,
  disabled: DisabledConnection[],
  publicUrl: string,
): Promise<void> {
  for (const workspaceId of new Set(disabled.map((item) => item.workspaceId))) {
    const here = disabled.filter((item) => item.workspaceId === workspaceId);
    const [workspace] = await db
      .select({ name: workspaces.name })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId));
    if (!workspace) continue;
    const links = [...new Set(here.map((item) => item.kind))].map((kind) => ({
      tabName: KINDS[kind].tabName,
      link: dashboardLink(
        publicUrl,
        '/dashboard',
        { section: 'settings', tab: KINDS[kind].tab },
        workspaceId,
      ),
    }));
    for (const to of await ownerAddresses(db, workspaceId)) {
      await mailer.send(
        connectionsDisabledMail({ to, workspaceName: workspace.name, disabled: here, links }),
      );
    }
  }
}
