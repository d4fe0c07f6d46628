import { tierBadge } from '../../lib/auth/profile.ts';
import type { AuthContextValue } from './auth-context.tsx';

/** Where the menu's items lead: real dashboard sections. */
export const MENU_LINKS = {
  dashboard: '/dashboard',
  profile: '/dashboard?section=settings&tab=profile',
  activity: '/dashboard?section=scans',
  settings: '/dashboard?section=settings',
  upgrade: '/dashboard?section=settings&tab=plan',
} as const;

export function scansRemaining(quota: {
  daily: number | null;
  remaining: number | null;
  used: number;
}): string {
  if (quota.daily === null) return 'Unlimited';
  return `${quota.remaining ?? Math.max(0, quota.daily - quota.used)}/${quota.daily}`;
}

interface Props {
  auth: AuthContextValue;
  onSignOut: () => void;
  itemClass: string;
}

/** The avatar menu's contents (spec 1 §2), shared by the desktop dropdown and the mobile menu. */
export function UserMenuContents({ auth, onSignOut, itemClass }: Props) {
  const profile = auth.userProfile;
  const name = profile?.displayName ?? auth.user?.displayName ?? 'Your account';
  const email = profile?.email ?? auth.user?.email ?? '';
  const tier = profile?.tier ?? 'free';
  const badge = tierBadge(tier);
  return (
    <>
      <div class="border-b border-slate-100 px-4 py-3">
        <div class="flex items-center gap-2">
          <span class="truncate text-sm font-semibold text-ink">{name}</span>
          <span
            class={`rounded-full px-2 py-0.5 text-xs font-medium ${badge.className}`}
            data-testid="tier-badge"
          >
            {badge.label}
          </span>
        </div>
        {email && <p class="truncate text-xs text-slate-600">{email}</p>}
        {profile && (
          <p class="mt-2 text-xs text-slate-700">
            Scans remaining:{' '}
            <span class="font-semibold" data-testid="scans-remaining">
              {scansRemaining(profile.scanQuota)}
            </span>
          </p>
        )}
      </div>
      <a role="menuitem" href={MENU_LINKS.dashboard} class={itemClass}>
        Dashboard
      </a>
      <a role="menuitem" href={MENU_LINKS.profile} class={itemClass}>
        Profile
      </a>
      <a role="menuitem" href={MENU_LINKS.activity} class={itemClass}>
        Activity
      </a>
      <a role="menuitem" href={MENU_LINKS.settings} class={itemClass}>
        Settings
      </a>
      {tier === 'free' && (
        <a role="menuitem" href={MENU_LINKS.upgrade} class={`${itemClass} font-semibold text-brand-700`}>
          Upgrade to Pro
        </a>
      )}
      <button type="button" role="menuitem" class={`${itemClass} w-full text-left`} onClick={onSignOut}>
        Sign out
      </button>
    </>
  );
}
