import { countOf } from './messages.ts';

/** A team workspace the account owns, with who else is in it. */
export interface OwnedTeam {
  name: string;
  memberCount: number;
  /** Owners, the account included. */
  owners: number;
}

/**
 * What deleting the account does to a team workspace it owns, by the rule the server deletes by:
 * one it is alone in goes with it; one with another owner stays and the account leaves it; one
 * others work in with no other owner must be handed over first (the server refuses until then).
 */
export type TeamFate = 'deleted' | 'stays' | 'hand-over';

export function teamFate(team: OwnedTeam): TeamFate {
  if (team.memberCount <= 1) return 'deleted';
  return team.owners > 1 ? 'stays' : 'hand-over';
}

export const ACCOUNT_DELETION_MESSAGES = {
  deleted: (name: string) => `“${name}” is deleted with your account, with its domains, scans and findings.`,
  stays: (team: OwnedTeam) =>
    `“${team.name}” stays with its ${countOf(team.memberCount - 1, 'other member')}, owned by ${countOf(team.owners - 1, 'other owner')}; you leave it.`,
  handOver: (team: OwnedTeam) =>
    `“${team.name}”: you are its only owner and ${countOf(team.memberCount - 1, 'other member works', 'other members work')} in it. Make another member owner, or delete the workspace (Settings → Members), before deleting your account.`,
} as const;

/** The sentence that says what happens to `team`. */
export function teamFateMessage(team: OwnedTeam): string {
  const fate = teamFate(team);
  if (fate === 'deleted') return ACCOUNT_DELETION_MESSAGES.deleted(team.name);
  return fate === 'stays' ? ACCOUNT_DELETION_MESSAGES.stays(team) : ACCOUNT_DELETION_MESSAGES.handOver(team);
}
