import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $workspaces } from '../../../lib/dashboard/workspaces.ts';
import { toast } from '../../../lib/toast.ts';
import { type OwnedTeam, teamFate, teamFateMessage } from '../../../model/account-deletion.ts';
import { hasPaidSubscription, subscriptionSettled } from '../../../model/billing.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { BUTTON } from '../shared/buttons.ts';
import { DangerFooter } from '../shared/DangerFooter.tsx';
import { Dialog } from '../shared/Dialog.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { TypedField } from '../shared/TypedField.tsx';
import { cancelSubscription } from './billing-actions.ts';
import { useBillingInfo } from './use-billing-info.ts';

const CONFIRM_WORD = 'DELETE';

/**
 * The team workspaces the account owns, with their owners counted (the members list of each one
 * others work in): what deleting the account does to each depends on them. Null while read.
 */
function useOwnedTeams(): OwnedTeam[] | null {
  const { workspaces } = useStore($workspaces);
  const [teams, setTeams] = useState<OwnedTeam[] | null>(null);
  useEffect(() => {
    const owned = workspaces.filter((w) => !w.personal && w.role === 'owner');
    let live = true;
    Promise.all(
      owned.map(async (w): Promise<OwnedTeam> => {
        if (w.memberCount <= 1) return { name: w.name, memberCount: w.memberCount, owners: 1 };
        const { members } = await dashboardApi().workspaces.members(w.id);
        const owners = members.filter((m) => m.role === 'owner').length;
        return { name: w.name, memberCount: members.length, owners };
      }),
    )
      .then((list) => live && setTeams(list))
      // Unread, the server's refusal still names a workspace to hand over.
      .catch(() => live && setTeams([]));
    return () => {
      live = false;
    };
  }, [workspaces]);
  return teams;
}

/** What deleting the account does to each team workspace it owns, one line each. */
export function OwnedTeamsNotice({ teams }: { teams: readonly OwnedTeam[] }) {
  if (teams.length === 0) return null;
  const blocked = teams.some((team) => teamFate(team) === 'hand-over');
  return (
    <div
      className={`rounded-md border p-3 ${blocked ? 'border-amber-300 bg-amber-50 text-amber-900' : 'border-slate-200 bg-slate-50 text-slate-800'}`}
      data-testid="owned-teams"
    >
      <p className="font-semibold">Team workspaces you own</p>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {teams.map((team) => (
          <li key={team.name}>{teamFateMessage(team)}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Deletion only once the typed e-mail matches the account's (any case), DELETE is typed
 * exactly, the box is ticked, any paid subscription is cancelled and no team workspace is left
 * without an owner; the dialog names each team workspace the account owns and what happens to it.
 * Then sign out and go home.
 */
export function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const auth = useAuth();
  const { info, reload } = useBillingInfo();
  const [email, setEmail] = useState('');
  const [word, setWord] = useState('');
  const [understood, setUnderstood] = useState(false);
  const [busy, setBusy] = useState(false);
  const checkId = useId();
  const accountEmail = auth.userProfile?.email ?? auth.user?.email ?? '';
  const settled = info ? subscriptionSettled(info) : false;
  const teams = useOwnedTeams();
  const handedOver = teams !== null && !teams.some((team) => teamFate(team) === 'hand-over');
  const ready =
    handedOver &&
    accountEmail !== '' &&
    email.trim().toLowerCase() === accountEmail.toLowerCase() &&
    word === CONFIRM_WORD &&
    understood &&
    settled;

  const remove = async () => {
    if (!settled) {
      toast({ title: 'Please cancel your subscription first', variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      await dashboardApi().account.deleteAccount();
      toast({ title: 'Account Deleted', description: 'Your account and all its data are gone.' });
      await auth.signOut();
      window.location.assign('/');
    } catch (cause) {
      toast({
        title:
          cause instanceof Error && cause.message
            ? cause.message
            : 'Failed to delete account. Please try again or contact support.',
        variant: 'destructive',
      });
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Delete your account?"
      description="This permanently deletes your account and everything in it."
      onClose={onClose}
      footer={
        <DangerFooter
          confirmLabel="Delete My Account"
          busyLabel="Deleting..."
          busy={busy}
          ready={ready}
          onConfirm={() => void remove()}
          onCancel={onClose}
        />
      }
    >
      {!info || !teams ? (
        <Spinner label="Checking your subscription and workspaces" />
      ) : (
        <div className="space-y-4 text-sm">
          {hasPaidSubscription(info) && (
            <div
              className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900"
              data-testid="cancel-first"
            >
              {info.cancelAtPeriodEnd ? (
                <p>Your {info.plan.name} subscription is canceled: nothing more will be charged.</p>
              ) : (
                <>
                  <p>
                    You have an active {info.plan.name} subscription. Cancel it before deleting your account.
                  </p>
                  <button
                    type="button"
                    className={`${BUTTON.small} mt-2`}
                    disabled={busy}
                    onClick={async () => {
                      setBusy(true);
                      if (await cancelSubscription()) await reload();
                      setBusy(false);
                    }}
                  >
                    Cancel Subscription
                  </button>
                </>
              )}
            </div>
          )}
          <OwnedTeamsNotice teams={teams} />
          <TypedField
            label={`Type your e-mail address (${accountEmail})`}
            type="email"
            value={email}
            onChange={setEmail}
          />
          <TypedField label={`Type ${CONFIRM_WORD} to confirm`} value={word} onChange={setWord} />
          <label htmlFor={checkId} className="flex items-start gap-2">
            <input
              id={checkId}
              type="checkbox"
              checked={understood}
              onChange={(event) => setUnderstood(event.target.checked)}
              className="mt-0.5"
            />
            <span>
              I understand that my account, domains, scans and alerts are deleted for good and cannot be
              restored.
            </span>
          </label>
        </div>
      )}
    </Dialog>
  );
}
