import { getPlanForTier } from './profile.ts';
import { ROLE_LABELS, type WorkspaceRole } from './workspaces.ts';

/** Every action the audit log records; the data export, the activity list and the tests read it. */
export const AUDIT_ACTIONS = [
  'account.signed_in',
  'domain.added',
  'domain.verified',
  'domain.removed',
  'scan.started',
  'plan.changed',
  'subscription.canceled',
  'data.exported',
  'api_key.created',
  'api_key.revoked',
  'dns.connected',
  'dns.zone_monitored',
  'dns.disconnected',
  'dns.enabled',
  'cloud.connected',
  'cloud.changed',
  'cloud.disconnected',
  'cloud.enabled',
  'workspace.created',
  'workspace.renamed',
  'workspace.deleted',
  'member.invited',
  'invitation.revoked',
  'invitation.accepted',
  'member.role_changed',
  'member.removed',
  'finding.accepted',
  'finding.reopened',
  'webhook.added',
  'webhook.enabled',
  'webhook.removed',
  'integration.connected',
  'integration.changed',
  'integration.credential_replaced',
  'integration.removed',
  'integration.enabled',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Someone the activity list names: who acted, or the member acted upon. */
export interface ActivityPerson {
  userId: string;
  email: string | null;
  displayName: string | null;
}

/**
 * One entry of a workspace's activity (GET /api/workspaces/{id}/activity). The requester's IP
 * address, which the log keeps for the account's own export, is not shown to other members.
 */
export interface ActivityEntry {
  id: string;
  action: AuditAction;
  /** Null once the account that acted is deleted. */
  actor: ActivityPerson | null;
  /** The member a role change or removal was about, while their account exists. */
  member: ActivityPerson | null;
  detail: Record<string, unknown>;
  createdAt: string;
}

export interface ActivityResponse {
  entries: ActivityEntry[];
  /** Pass as `before` for the next, older page; null on the last. */
  nextBefore: string | null;
}

/** What activityCursor makes: a time to the millisecond and an id. */
export const ACTIVITY_CURSOR =
  /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Where a page of activity ends: the last entry's time and id (entries can share a millisecond). */
export function activityCursor(entry: Pick<ActivityEntry, 'createdAt' | 'id'>): string {
  return `${entry.createdAt}_${entry.id}`;
}

export const ACTIVITY_PAGE_SIZE = 50;

const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() ? value : fallback;
const plan = (tier: unknown) => getPlanForTier(text(tier, 'free')).name;
const role = (value: unknown) => ROLE_LABELS[value as WorkspaceRole]?.toLowerCase() ?? 'a member';

/** A person as the list shows them: their name, else their address. */
function personLabel(person: ActivityPerson | null, fallback = 'a former member'): string {
  return person?.displayName?.trim() || person?.email || fallback;
}

/**
 * What happened, after the actor's name: one plain sentence per action, from the entry's detail.
 * A table, so that a new action cannot be recorded without the words to show it.
 */
/** Until when an acceptance runs, as the activity list says it; nothing for one made before expiries. */
const untilWords = (until: unknown) =>
  until === 'record-changes'
    ? ' until the record changes'
    : typeof until === 'string' && until
      ? ` until ${until.slice(0, 10)}`
      : '';

const SENTENCES: Record<AuditAction, (detail: Record<string, unknown>, member: string) => string> = {
  'account.signed_in': () => 'signed in',
  'domain.added': (d) => `added ${text(d.domain, 'a domain')}`,
  'domain.verified': (d) => `verified ${text(d.domain, 'a domain')}`,
  'domain.removed': (d) => `removed ${text(d.domain, 'a domain')}`,
  'scan.started': (d) => `started a scan of ${text(d.domain, 'a domain')}`,
  'plan.changed': (d) =>
    `${d.source === 'operator' ? 'was given' : 'moved the workspace to'} the ${plan(d.to)} plan (was ${plan(d.from)})`,
  'subscription.canceled': () => 'canceled the subscription at the end of the period',
  'data.exported': () => 'exported their data',
  'api_key.created': (d) => `created the API key ${text(d.name, '')} (${text(d.prefix, 'dw_…')})`,
  'api_key.revoked': (d) => `revoked the API key ${text(d.name, '')} (${text(d.prefix, 'dw_…')})`,
  'dns.connected': (d) => `connected ${text(d.provider, 'a DNS provider')} DNS`,
  'dns.zone_monitored': (d) => `started monitoring the zone ${text(d.zone, '')}`,
  'dns.disconnected': (d) => `disconnected ${text(d.provider, 'a DNS provider')} DNS`,
  'dns.enabled': (d) => `re-enabled the DNS connection ${text(d.label, '')}`,
  'cloud.connected': (d) => `connected the ${text(d.provider, 'cloud')} account ${text(d.label, '')}`,
  'cloud.changed': (d) => `changed the cloud account ${text(d.label, '')}`,
  'cloud.disconnected': (d) => `disconnected the ${text(d.provider, 'cloud')} account ${text(d.label, '')}`,
  'cloud.enabled': (d) => `re-enabled the cloud account ${text(d.label, '')}`,
  'workspace.created': (d) => `created the workspace ${text(d.name, '')}`,
  'workspace.renamed': (d) => `renamed the workspace from ${text(d.from, '…')} to ${text(d.to, '…')}`,
  'workspace.deleted': (d) => `deleted the workspace ${text(d.name, '')}`,
  'member.invited': (d) => `invited ${text(d.email, 'someone')} as ${role(d.role)}`,
  'invitation.revoked': (d) => `withdrew the invitation of ${text(d.email, 'someone')}`,
  'invitation.accepted': (d) => `joined as ${role(d.role)}`,
  'member.role_changed': (d, member) => `made ${member} ${role(d.role)}`,
  'member.removed': (_d, member) => `removed ${member}`,
  'finding.accepted': (d) =>
    `accepted the risk of ${text(d.subdomain, 'a finding')}${untilWords(d.until)}${typeof d.note === 'string' && d.note ? `: “${d.note}”` : ''}`,
  'finding.reopened': (d) => `reopened ${text(d.subdomain, 'a finding')}`,
  'webhook.added': (d) => `added a webhook to ${text(d.host, 'an address')}`,
  'webhook.enabled': (d) => `re-enabled the webhook to ${text(d.host, 'an address')}`,
  'webhook.removed': (d) => `removed the webhook to ${text(d.host, 'an address')}`,
  'integration.connected': (d) => `connected ${text(d.label, 'an integration')}`,
  'integration.changed': (d) => `changed the integration ${text(d.label, '')}`,
  'integration.credential_replaced': (d) => `replaced the credential of ${text(d.label, 'an integration')}`,
  'integration.removed': (d) => `removed the integration ${text(d.label, '')}`,
  'integration.enabled': (d) => `re-enabled the integration ${text(d.label, '')}`,
};

/** The entry in words: "Olive invited cleo@acme.io as viewer". */
export function describeActivity(
  entry: Pick<ActivityEntry, 'action' | 'actor' | 'member' | 'detail'>,
): string {
  const actor = personLabel(entry.actor, 'A former member');
  // Someone who removes themself leaves.
  if (entry.action === 'member.removed' && entry.member && entry.member.userId === entry.actor?.userId) {
    return `${actor} left the workspace`;
  }
  const sentence = SENTENCES[entry.action]?.(entry.detail, personLabel(entry.member));
  return `${actor} ${sentence ?? entry.action}`;
}
