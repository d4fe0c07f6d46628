import { formatPrice, type Plan, type PlanId } from './plans.ts';

/**
 * Workspaces: every account has a personal one, and may create team workspaces. Domains, scans,
 * findings, DNS connections, webhooks, API keys, the audit log and the plan belong to a workspace.
 */

/** Roles, from most to least able: each can do everything the roles after it can. */
export const WORKSPACE_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** The roles an invitation may give: ownership is handed over by changing a member's role. */
export const INVITABLE_ROLES = ['admin', 'member', 'viewer'] as const;

export const ROLE_LABELS: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

/**
 * The one rule table: the least role each action needs. The API enforces it on every call; the
 * dashboard only hides what the caller's role cannot do.
 */
export const ROLE_NEEDED = {
  /** Read anything of the workspace: domains, scans, findings, members, the audit log. */
  read: 'viewer',
  /** Add, verify, configure and remove domains; start and cancel scans; upload zone files. */
  'domains.write': 'member',
  'scans.start': 'member',
  'findings.accept': 'member',
  /** Invite, remove and change the role of members (never to or from owner). */
  'members.manage': 'admin',
  'dns-connections.manage': 'admin',
  'cloud-accounts.manage': 'admin',
  'api-keys.manage': 'admin',
  'webhooks.manage': 'admin',
  /** Connect, change, test and remove trackers and pagers (Jira, GitHub, Linear, PagerDuty), and read them. */
  'integrations.manage': 'admin',
  /** The plan and its subscription, deleting or renaming the workspace, making someone owner. */
  'workspace.billing': 'owner',
  'workspace.manage': 'owner',
} as const satisfies Record<string, WorkspaceRole>;

export type WorkspaceAction = keyof typeof ROLE_NEEDED;

/** Whether `role` may do `action`. */
export function can(role: WorkspaceRole, action: WorkspaceAction): boolean {
  return WORKSPACE_ROLES.indexOf(role) <= WORKSPACE_ROLES.indexOf(ROLE_NEEDED[action]);
}

/** The less able of two roles: what someone acting with both may do is what both allow. */
export function lesserRole(a: WorkspaceRole, b: WorkspaceRole): WorkspaceRole {
  return WORKSPACE_ROLES.indexOf(a) >= WORKSPACE_ROLES.indexOf(b) ? a : b;
}

/**
 * Workspace-scoped calls name their workspace in this header; without it, the caller's personal one.
 * Browser and server both read it from here.
 */
export const WORKSPACE_HEADER = 'X-Workspace-ID';

/**
 * The query parameter a link into the dashboard names its workspace with: an alert about a team's
 * scan opens on that team's workspace, whichever one the reader had open last.
 */
export const WORKSPACE_PARAM = 'workspace';

/** A dashboard link for e-mails and webhooks: `path` with `params`, opening on `workspaceId`. */
export function dashboardLink(
  publicUrl: string,
  path: string,
  params: Record<string, string>,
  workspaceId: string,
): string {
  const url = new URL(path, publicUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  url.searchParams.set(WORKSPACE_PARAM, workspaceId);
  return url.toString();
}

/**
 * What an invitation's link tells whoever holds it, signed in or not (POST /api/invitations/preview):
 * who sent it and to which workspace, nothing more (not the address, the role or any member).
 */
export interface InvitationPreview {
  /** The inviter's name; null when they left no name or deleted their account. */
  inviter: string | null;
  workspace: string;
}

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

export const WORKSPACE_NAME_MAX = 80;

/** Every personal workspace's name: the database gives it (migration 0012), and it cannot change. */
export const PERSONAL_WORKSPACE_NAME = 'Personal';

/** GET /api/workspaces: each workspace the caller belongs to. */
export interface WorkspaceView {
  id: string;
  name: string;
  personal: boolean;
  role: WorkspaceRole;
  plan: PlanId;
  memberCount: number;
}

export interface MemberView {
  userId: string;
  email: string | null;
  displayName: string | null;
  role: WorkspaceRole;
  /** Whether this member gets the workspace's change alerts by e-mail. */
  alertsEmail: boolean;
  joinedAt: string;
}

export interface InvitationView {
  id: string;
  email: string;
  role: WorkspaceRole;
  expiresAt: string;
}

/** GET /api/workspaces/{id}/members */
export interface MembersResponse {
  members: MemberView[];
  invitations: InvitationView[];
}

/** 'Acme', 'Acme and Beta', 'Acme, Beta and Cid', each name quoted as given. */
function listNames(names: string[]): string {
  const quoted = names.map((name) => `“${name}”`);
  return quoted.length < 2 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

export const WORKSPACE_MESSAGES = {
  roleNeeded: (action: WorkspaceAction) =>
    `This needs the ${ROLE_LABELS[ROLE_NEEDED[action]]} role or higher in this workspace`,
  notFound: 'Workspace not found',
  memberLimit: (plan: string, members: number) =>
    `The ${plan} plan allows ${members} ${members === 1 ? 'member' : 'members'} in a workspace, invitations included; upgrade the workspace's plan to add more`,
  personal: 'A personal workspace is yours alone: create a team workspace to work with others',
  /** Said where a team workspace is created: it starts on Free, where nobody can be invited. */
  newTeamStartsFree: (free: Plan, paid: Plan) =>
    `A team workspace starts on the ${free.name} plan: ${free.limits.members} member (you), its domains and scans counted against a ${free.name} allowance. To invite anyone, give it a plan of its own once it is made: ${paid.name}, ${formatPrice(paid.priceCents)}/month, up to ${paid.limits.members} members (Settings → Plan).`,
  alreadyMember: (email: string) => `${email} is already a member of this workspace`,
  invitationWrongEmail:
    'This invitation was sent to another e-mail address: sign in with that address to accept it',
  invitationUnverifiedEmail:
    'Your sign-in provider has not verified this e-mail address, and only a verified address accepts an invitation. Verify it with your provider (on GitHub: Settings → Emails) and sign in again, or sign in with a provider that has verified it, such as Google.',
  invitationGone: 'This invitation has expired, was already used, or was withdrawn',
  invitationNotFound: 'No invitation waits at this link: it has expired, was already used, or was withdrawn',
  /** The sign-in page, reached from an invitation's link: who asks whom where, before the sign-in. */
  invitationPreview: ({ inviter, workspace }: InvitationPreview) =>
    `${inviter ?? 'A member of it'} invited you to join ${workspace} on DangleWatch. Sign in with the address the invitation was sent to, and you join it at once.`,
  lastOwner: 'A workspace needs an owner: make another member owner first',
  ownAlertsOnly: 'Each member chooses their own e-mail alerts',
  personalDelete:
    'A personal workspace goes with its account: delete your account in Settings → Data to delete it',
  personalRename: 'A personal workspace keeps its name: rename a team workspace instead',
  handOverFirst: (names: string[]) =>
    `You are the only owner of ${listNames(names)}, where others work: make another member owner, or delete the workspace (Settings → Members), before deleting your account`,
  noLongerMember: (name: string) => `You no longer have access to ${name}`,
  teamLimit: (plan: Plan) =>
    `The ${plan.name} plan includes ${plan.limits.teamWorkspaces} team workspace${plan.limits.teamWorkspaces === 1 ? '' : 's'}, which shares your ${plan.limits.domains} domain${plan.limits.domains === 1 ? '' : 's'} and ${plan.limits.scansPerDomainPerDay} scan${plan.limits.scansPerDomainPerDay === 1 ? '' : 's'} a day: upgrade your own plan (Settings → Plan) to create more team workspaces, each with a plan of its own`,
} as const;
