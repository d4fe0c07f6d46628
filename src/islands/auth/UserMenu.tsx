import { useState } from 'react';
import { tierBadge } from '../../model/profile.ts';
import { WORKSPACE_PARAM } from '../../model/workspaces.ts';
import type { AuthContextValue } from './auth-context.tsx';

/** Where the menu's items lead: real dashboard sections. */
const MENU_LINKS = {
  dashboard: '/dashboard',
  profile: '/dashboard?section=settings&tab=profile',
  activity: '/dashboard?section=scans',
  settings: '/dashboard?section=settings',
} as const;

/**
 * The plan the menu's badge and quota describe is the account's own: the upgrade opens the plan of
 * its personal workspace (whose id is the uid), whichever workspace the dashboard had open.
 */
const upgradeLink = (uid: string) =>
  `/dashboard?${new URLSearchParams({ section: 'settings', tab: 'plan', [WORKSPACE_PARAM]: uid })}`;

function scansRemaining(quota: { daily: number | null; remaining: number | null; used: number }): string {
  if (quota.daily === null) return 'Unlimited';
  return `${quota.remaining ?? Math.max(0, quota.daily - quota.used)}/${quota.daily}`;
}

interface Props {
  auth: AuthContextValue;
  onSignOut: () => void;
  itemClass: string;
}

/** The avatar menu's contents, shared by the desktop dropdown and the mobile menu. */
export function UserMenuContents({ auth, onSignOut, itemClass }: Props) {
  const profile = auth.userProfile;
  const name = profile?.displayName ?? auth.user?.displayName ?? 'Your account';
  const email = profile?.email ?? auth.user?.email ?? '';
  const tier = profile?.tier;
  const badge = tier ? tierBadge(tier) : null;
  return (
    <>
      <div className="border-b border-slate-100 px-4 py-3">
        <div className="flex items-center gap-2">
          <span className="truncate text-sm font-semibold text-ink">{name}</span>
          {badge && (
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-medium ${badge.className}`}
              data-testid="tier-badge"
            >
              {badge.label}
            </span>
          )}
        </div>
        {email && <p className="truncate text-xs text-slate-600">{email}</p>}
        {profile && (
          <p className="mt-2 text-xs text-slate-700">
            Scans remaining:{' '}
            <span className="font-semibold" data-testid="scans-remaining">
              {scansRemaining(profile.scanQuota)}
            </span>
          </p>
        )}
        {auth.profileError && <ProfileUnavailable auth={auth} />}
      </div>
      <a role="menuitem" href={MENU_LINKS.dashboard} className={itemClass}>
        Dashboard
      </a>
      <a role="menuitem" href={MENU_LINKS.profile} className={itemClass}>
        Profile
      </a>
      <a role="menuitem" href={MENU_LINKS.activity} className={itemClass}>
        Activity
      </a>
      <a role="menuitem" href={MENU_LINKS.settings} className={itemClass}>
        Settings
      </a>
      {auth.user && tier === 'free' && (
        <a
          role="menuitem"
          href={upgradeLink(auth.user.uid)}
          className={`${itemClass} font-semibold text-brand-700`}
        >
          Upgrade to Pro
        </a>
      )}
      <button type="button" role="menuitem" className={`${itemClass} w-full text-left`} onClick={onSignOut}>
        Sign out
      </button>
    </>
  );
}

/** The plan and quota are unknown (GET /auth/user failed): say so and offer a retry, never guess. */
function ProfileUnavailable({ auth }: { auth: AuthContextValue }) {
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    setRetrying(true);
    try {
      await auth.refreshProfile();
    } finally {
      setRetrying(false);
    }
  };
  return (
    <p role="alert" className="mt-2 text-xs text-red-800" data-testid="profile-unavailable">
      {auth.profileError}{' '}
      <button
        type="button"
        className="font-semibold underline disabled:opacity-60"
        disabled={retrying}
        onClick={(event) => {
          // The menu stays open while the profile loads again.
          event.stopPropagation();
          void retry();
        }}
      >
        {retrying ? 'Retrying...' : 'Retry'}
      </button>
    </p>
  );
}
