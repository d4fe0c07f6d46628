import { useStore } from '@nanostores/react';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $currentWorkspace, forgetWorkspace, loadWorkspaces } from '../../../lib/dashboard/workspaces.ts';
import { serverMessage } from '../../../lib/request/errors.ts';
import { toast } from '../../../lib/toast.ts';
import { getPlan } from '../../../model/plans.ts';
import {
  can,
  INVITABLE_ROLES,
  type InvitationView,
  type MembersResponse,
  type MemberView,
  ROLE_LABELS,
  WORKSPACE_MESSAGES,
  WORKSPACE_ROLES,
  type WorkspaceRole,
  type WorkspaceView,
} from '../../../model/workspaces.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { BUTTON } from '../shared/buttons.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { ScrollRegion } from '../shared/ScrollRegion.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { WorkspaceCard } from './WorkspaceCard.tsx';

/** The actions the panel offers; each reports the server's refusal in its own words. */
export interface MemberActions {
  invite: (email: string, role: WorkspaceRole) => Promise<void>;
  revoke: (invitation: InvitationView) => Promise<void>;
  setRole: (member: MemberView, role: WorkspaceRole) => Promise<void>;
  /** The caller's own e-mail alerts of this workspace. */
  setAlerts: (alertsEmail: boolean) => Promise<void>;
  remove: (member: MemberView) => Promise<void>;
  /** The workspace itself: its owner renames or deletes it. */
  rename: (name: string) => Promise<void>;
  deleteWorkspace: () => Promise<void>;
}

/** Settings → Members: the current workspace's members and pending invitations. */
export function MembersPanel() {
  const auth = useAuth();
  const workspace = useStore($currentWorkspace);
  const [data, setData] = useState<MembersResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = workspace?.id;

  const load = useCallback(async () => {
    if (!id) return;
    try {
      setData(await dashboardApi().workspaces.members(id));
      setError(null);
    } catch (cause) {
      setError(serverMessage(cause));
      setData((current) => current ?? { members: [], invitations: [] });
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);

  if (!workspace) return <p className="text-sm text-slate-700">{WORKSPACE_MESSAGES.notFound}</p>;
  if (!data) return <Spinner label="Loading members" />;

  const api = dashboardApi().workspaces;
  // The caller's own role or the member count may have changed: the switcher reads them again.
  const refresh = async () => {
    await load();
    await loadWorkspaces(api);
  };
  const actions: MemberActions = {
    invite: async (email, role) => {
      await api.invite(workspace.id, email, role);
      toast({ title: 'Invitation sent', description: `An invitation link went to ${email}.` });
      await refresh();
    },
    revoke: async (invitation) => {
      await api.revokeInvitation(workspace.id, invitation.id);
      await refresh();
    },
    setRole: async (member, role) => {
      await api.setRole(workspace.id, member.userId, role);
      await refresh();
    },
    setAlerts: async (alertsEmail) => {
      await api.setAlerts(workspace.id, auth.user?.uid ?? '', alertsEmail);
      await load();
    },
    remove: async (member) => {
      await api.removeMember(workspace.id, member.userId);
      if (member.userId !== auth.user?.uid) return refresh();
      // Leaving: the workspace is no longer the caller's, and the dashboard goes to the personal one.
      forgetWorkspace(workspace.id);
      toast({ title: `You left ${workspace.name}` });
      await loadWorkspaces(api);
    },
    rename: async (name) => {
      await api.rename(workspace.id, name);
      toast({ title: 'Workspace renamed', description: `It is now called ${name}.` });
      await loadWorkspaces(api);
    },
    deleteWorkspace: async () => {
      await api.remove(workspace.id);
      forgetWorkspace(workspace.id);
      toast({ title: 'Workspace deleted', description: `${workspace.name} and everything in it are gone.` });
      await loadWorkspaces(api);
    },
  };
  return (
    <MembersView
      workspace={workspace}
      data={data}
      me={auth.user?.uid ?? ''}
      actions={actions}
      error={error}
    />
  );
}

interface MembersViewProps {
  workspace: WorkspaceView;
  data: MembersResponse;
  /** The signed-in user's id: their own row offers no 'Remove' (they leave from the workspace card). */
  me: string;
  actions: MemberActions;
  error?: string | null;
}

/** The members screen for a role: what the role cannot do is not offered (the API refuses it anyway). */
export function MembersView({ workspace, data, me, actions, error }: MembersViewProps) {
  const mine = data.members.find((member) => member.userId === me);
  const manage = can(workspace.role, 'members.manage');
  const limit = getPlan(workspace.plan).limits.members;
  // Pending invitations hold a seat, as the server counts them.
  const seats = data.members.length + data.invitations.length;
  const [removing, setRemoving] = useState<MemberView | null>(null);
  const [changing, setChanging] = useState<{ member: MemberView; role: WorkspaceRole } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (work: () => Promise<void>): Promise<boolean> => {
    setFailure(null);
    try {
      await work();
      return true;
    } catch (cause) {
      setFailure(serverMessage(cause));
      return false;
    }
  };
  const leaving = removing?.userId === me;

  return (
    <div className="max-w-3xl space-y-6 text-sm" data-testid="members-panel">
      <div>
        <h2 className="text-lg font-semibold text-ink">Members of {workspace.name}</h2>
        <p className="mt-1 text-slate-700" data-testid="member-limit">
          {seats} of {limit} {limit === 1 ? 'member' : 'members'} ({getPlan(workspace.plan).name} plan,
          pending invitations included)
        </p>
        {workspace.personal && <p className="mt-1 text-slate-700">{WORKSPACE_MESSAGES.personal}</p>}
      </div>
      {(error || failure) && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-800">
          {failure ?? error}
        </p>
      )}
      <ScrollRegion label="Members">
        <table className="w-full text-left [&_td]:pr-3 [&_th]:pr-3">
          <caption className="sr-only">Members</caption>
          <thead className="text-xs text-slate-600 uppercase">
            <tr>
              <th scope="col" className="py-2">
                Name
              </th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.members.map((member) => (
              <MemberRow
                key={member.userId}
                member={member}
                workspace={workspace}
                self={member.userId === me}
                onRole={(role) => setChanging({ member, role })}
                onRemove={() => setRemoving(member)}
              />
            ))}
          </tbody>
        </table>
      </ScrollRegion>

      {mine && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={mine.alertsEmail}
            onChange={(event) => {
              const on = event.target.checked;
              void run(() => actions.setAlerts(on));
            }}
          />
          E-mail me when this workspace's scans find changes
        </label>
      )}

      {data.invitations.length > 0 && (
        <div>
          <h3 className="font-semibold text-ink">Pending invitations</h3>
          <ul className="mt-2 divide-y divide-slate-200">
            {data.invitations.map((invitation) => (
              <li
                key={invitation.id}
                className="flex flex-wrap items-center gap-3 py-2"
                data-testid="invitation"
              >
                <span className="font-medium">{invitation.email}</span>
                <span>{ROLE_LABELS[invitation.role]}</span>
                <span className="text-slate-600">Expires {formatDateTime(invitation.expiresAt)}</span>
                {manage && (
                  <span className="ml-auto flex gap-2">
                    <button
                      type="button"
                      className={BUTTON.small}
                      aria-label={`Resend invitation to ${invitation.email}`}
                      onClick={() => run(() => actions.invite(invitation.email, invitation.role))}
                    >
                      Resend
                    </button>
                    <button
                      type="button"
                      className={BUTTON.small}
                      aria-label={`Revoke invitation to ${invitation.email}`}
                      onClick={() => run(() => actions.revoke(invitation))}
                    >
                      Revoke
                    </button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      {manage && !workspace.personal && seats >= limit && (
        <p
          className="rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-900"
          data-testid="invite-limit"
        >
          {WORKSPACE_MESSAGES.memberLimit(getPlan(workspace.plan).name, limit)}.{' '}
          <a className="font-medium underline" href="/dashboard?section=settings&tab=plan">
            See the plans for {workspace.name}
          </a>
        </p>
      )}
      {manage && !workspace.personal && seats < limit && (
        <InviteForm onInvite={(email, role) => run(() => actions.invite(email, role))} />
      )}

      {!workspace.personal && (
        <WorkspaceCard
          workspace={workspace}
          otherOwner={data.members.some((member) => member.role === 'owner' && member.userId !== me)}
          rename={actions.rename}
          remove={actions.deleteWorkspace}
          onLeave={() => mine && setRemoving(mine)}
        />
      )}

      {changing && (
        <ConfirmDialog
          title="Change role"
          question={`Make ${nameOf(changing.member)} ${ROLE_LABELS[changing.role]} in ${workspace.name}?`}
          confirmLabel="Change role"
          busyLabel="Changing..."
          fallbackError="That did not work; try again."
          onConfirm={async () => {
            try {
              await actions.setRole(changing.member, changing.role);
            } catch (cause) {
              throw new Error(serverMessage(cause));
            }
            setChanging(null);
          }}
          onClose={() => setChanging(null)}
        >
          {roleChangeEffects(changing.member.role, changing.role)}
        </ConfirmDialog>
      )}

      {removing && (
        <ConfirmDialog
          title={leaving ? 'Leave workspace' : 'Remove member'}
          question={
            leaving
              ? `Leave ${workspace.name}?`
              : `Remove ${removing.displayName ?? removing.email ?? 'this member'} from ${workspace.name}?`
          }
          confirmLabel={leaving ? 'Leave workspace' : 'Remove member'}
          busyLabel={leaving ? 'Leaving...' : 'Removing...'}
          fallbackError="That did not work; try again."
          onConfirm={async () => {
            try {
              await actions.remove(removing);
            } catch (cause) {
              throw new Error(serverMessage(cause));
            }
            setRemoving(null);
          }}
          onClose={() => setRemoving(null)}
        >
          {leaving
            ? `You lose access to its domains, scans and findings at once, the API keys you made for it stop working, and the webhooks you added are disabled (${OWNERS_TOLD}); an admin can invite you again.`
            : `They lose access to its domains, scans and findings on their next call, the API keys they made for it stop working, and the webhooks they added are disabled (${OWNERS_TOLD}).`}
        </ConfirmDialog>
      )}
    </div>
  );
}

const nameOf = (member: MemberView) => member.displayName ?? member.email ?? 'this member';

/** What happens to a disabled webhook, as the dialogs that disable one say it. */
const OWNERS_TOLD = 'the owners get an e-mail; an admin re-enables them in Settings → Alerts';

/**
 * What a role change does besides the role, as its dialog says: the member's API keys act with
 * at most their role as it is at each call (the server checks it), so they follow it at once, and
 * a role below admin disables the webhooks they added.
 */
export function roleChangeEffects(from: WorkspaceRole, role: WorkspaceRole): string {
  const keys = can(role, 'scans.start')
    ? 'The API keys they made follow the new role from their next call (a key reads and starts scans at most).'
    : 'The API keys they made follow the new role from their next call: they can read, but no longer start scans.';
  const hooks =
    can(from, 'webhooks.manage') && !can(role, 'webhooks.manage')
      ? ` The webhooks they added are disabled (${OWNERS_TOLD}).`
      : '';
  return `Their access changes on their next call. ${keys}${hooks}`;
}

interface MemberRowProps {
  member: MemberView;
  workspace: WorkspaceView;
  self: boolean;
  onRole: (role: WorkspaceRole) => void;
  onRemove: () => void;
}

function MemberRow({ member, workspace, self, onRole, onRemove }: MemberRowProps) {
  const roleId = useId();
  const name = member.displayName ?? member.email ?? 'Unnamed member';
  // Admins manage members below owner; only an owner touches an owner or makes one.
  const manageable =
    !self &&
    can(workspace.role, 'members.manage') &&
    (member.role !== 'owner' || can(workspace.role, 'workspace.manage'));
  const roles = WORKSPACE_ROLES.filter((role) => role !== 'owner' || can(workspace.role, 'workspace.manage'));
  return (
    <tr className="border-t border-slate-200" data-testid="member-row">
      <td className="py-2 font-medium">
        {name}
        {self && <span className="text-slate-600"> (you)</span>}
      </td>
      <td>{member.email ?? '—'}</td>
      <td>
        {manageable ? (
          <>
            <label htmlFor={roleId} className="sr-only">
              Role of {name}
            </label>
            <select
              id={roleId}
              value={member.role}
              onChange={(event) => onRole(event.target.value as WorkspaceRole)}
              className="rounded-md border border-slate-300 px-2 py-1"
            >
              {roles.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
          </>
        ) : (
          ROLE_LABELS[member.role]
        )}
      </td>
      <td>{formatDateTime(member.joinedAt)}</td>
      <td className="text-right">
        {manageable && (
          <button type="button" className={BUTTON.small} aria-label={`Remove ${name}`} onClick={onRemove}>
            Remove
          </button>
        )}
      </td>
    </tr>
  );
}

function InviteForm({ onInvite }: { onInvite: (email: string, role: WorkspaceRole) => Promise<boolean> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('member');
  const [busy, setBusy] = useState(false);
  const emailId = useId();
  const roleId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    // A refused invitation keeps the address, to correct it or try again.
    if (await onInvite(email.trim(), role)) setEmail('');
    setBusy(false);
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Invite a member">
      <div>
        <label htmlFor={emailId} className="block text-xs font-medium text-slate-700">
          E-mail address
        </label>
        <input
          id={emailId}
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className="mt-1 rounded-md border border-slate-300 px-2 py-1.5"
        />
      </div>
      <div>
        <label htmlFor={roleId} className="block text-xs font-medium text-slate-700">
          Role
        </label>
        <select
          id={roleId}
          value={role}
          onChange={(event) => setRole(event.target.value as WorkspaceRole)}
          className="mt-1 rounded-md border border-slate-300 px-2 py-1.5"
        >
          {INVITABLE_ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={BUTTON.primary} disabled={busy || !email.trim()}>
        Invite
      </button>
    </form>
  );
}
