import { escapeHtml } from '../mail/html.ts';
import type { MailMessage } from '../mail/mailer.ts';

/** The invitation e-mail: who invites, into which workspace, with which role, and the link. */
export function invitationMail(invitation: {
  to: string;
  workspaceName: string;
  inviter: string;
  role: string;
  link: string;
  days: number;
}): MailMessage {
  const { to, workspaceName, inviter, role, link, days } = invitation;
  const subject = `${inviter} invited you to ${workspaceName} on DangleWatch`;
  const text = [
    `${inviter} invited you to the workspace ${workspaceName} on DangleWatch, as ${role}.`,
    '',
    `Accept the invitation: ${link}`,
    '',
    `Sign in with this e-mail address (${to}) to accept. The link works once, for ${days} days.`,
    'If you did not expect this invitation, ignore this e-mail.',
  ].join('\n');
  const html = `<p>${escapeHtml(inviter)} invited you to the workspace <strong>${escapeHtml(workspaceName)}</strong> on DangleWatch, as ${escapeHtml(role)}.</p>
<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>
<p>Sign in with this e-mail address (${escapeHtml(to)}) to accept. The link works once, for ${days} days. If you did not expect this invitation, ignore this e-mail.</p>`;
  return { to, subject, text, html };
}
