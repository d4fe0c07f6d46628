import { ROLE_LABELS, type WorkspaceRole } from './workspaces.ts';

/**
 * Every outside account a workspace connects (a DNS provider, a cloud account, a tracker or pager,
 * a webhook) is answered for by one member: who connected it, or last re-enabled it. When that
 * member leaves, is removed, deletes their account or drops below admin, it is disabled (not
 * deleted) until an admin re-enables it, and answers for it from then on.
 */
export const CONNECTION_MESSAGES = {
  /** Why it was disabled: `who` answered for it, then left the workspace or was removed. */
  answererGone: (who: string) => `${who}, who answers for it, is no longer a member of the workspace`,
  /** Why it was disabled: `who` answered for it, then got a role below admin. */
  answererDemoted: (who: string, role: WorkspaceRole) =>
    `${who}, who answers for it, is no longer an admin (now ${ROLE_LABELS[role]})`,
  /** What a disabled connection refuses to do until it is re-enabled. */
  disabled: (what: string) => `This ${what} is disabled: re-enable it first`,
  /** A workspace holds a bounded number of each kind. */
  limit: (limit: number, plural: string) => `You can add at most ${limit} ${plural}`,
  enableOnly: 'Only true is accepted, to re-enable a disabled connection (one is turned off by removing it)',
} as const;

/** How a member is named where others read it: who answers for a connection, why it was disabled. */
export const memberName = (member: { displayName: string | null; email: string | null }) =>
  member.displayName && member.email
    ? `${member.displayName} (${member.email})`
    : (member.displayName ?? member.email ?? 'A former member');

/** Set while a connection is disabled: when, and why in a sentence the card shows. */
export type DisabledView = { at: string; reason: string } | null;

/**
 * What a connection's card adds to its name: the service, unless the name already says it
 * ("PagerDuty", not "PagerDuty (PagerDuty)"); null when it would only repeat it.
 */
export function serviceBesideName(name: string, service: string): string | null {
  const said = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const first = said(service.split(' ')[0] ?? service);
  return said(name).includes(first) ? null : service;
}
