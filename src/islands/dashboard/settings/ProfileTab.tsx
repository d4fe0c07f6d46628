import { useId, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { toast } from '../../../lib/toast.ts';
import { DISPLAY_NAME_MAX, getPlanForTier, tierBadge } from '../../../model/profile.ts';
import { Avatar } from '../../auth/Avatar.tsx';
import { useAuth } from '../../auth/auth-context.tsx';
import { BUTTON } from '../shared/buttons.ts';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
const formatDate = (iso: string | undefined) => (iso ? dateFormat.format(new Date(iso)) : 'Unknown');

/** Settings → Profile: avatar, display name edited inline, e-mail, plan badge, dates, provider. */
export function ProfileTab() {
  const auth = useAuth();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [saving, setSaving] = useState(false);
  const inputId = useId();
  const user = auth.user;
  if (!user) return null;
  const profile = auth.userProfile;
  const displayName = profile?.displayName ?? user.displayName;
  const tier = profile?.tier ?? 'free';

  const save = async () => {
    const name = draft.trim();
    if (!name) {
      toast({ title: 'Display name cannot be empty', variant: 'destructive' });
      return;
    }
    setSaving(true);
    try {
      await dashboardApi().auth.updateProfile(name);
      await auth.refreshProfile();
      toast({ title: 'Display name updated successfully' });
      setEditing(false);
    } catch {
      toast({ title: 'Error: Failed to update display name', variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <dl
      className="grid max-w-xl grid-cols-[7rem_minmax(0,1fr)] sm:grid-cols-[10rem_minmax(0,1fr)] items-center gap-x-4 gap-y-3 text-sm"
      data-testid="profile-tab"
    >
      <dt className="text-slate-600">Avatar</dt>
      <dd>
        <Avatar
          photoURL={profile?.photoURL ?? user.photoURL}
          displayName={displayName}
          email={user.email}
          size="lg"
        />
      </dd>
      <dt className="text-slate-600">
        {editing ? <label htmlFor={inputId}>Display name</label> : 'Display name'}
      </dt>
      <dd>
        {editing ? (
          <form
            className="flex flex-wrap items-center gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <input
              id={inputId}
              value={draft}
              maxLength={DISPLAY_NAME_MAX}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setEditing(false);
              }}
              className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-1.5"
            />
            <button type="submit" className={BUTTON.small} disabled={saving}>
              {saving ? 'Saving...' : 'Save'}
            </button>
            <button
              type="button"
              className={BUTTON.small}
              onClick={() => setEditing(false)}
              disabled={saving}
            >
              Cancel
            </button>
          </form>
        ) : (
          <span className="flex items-center gap-3">
            <span>{displayName || 'Not set'}</span>
            <button
              type="button"
              className={BUTTON.small}
              onClick={() => {
                setDraft(displayName ?? '');
                setEditing(true);
              }}
            >
              Edit
            </button>
          </span>
        )}
      </dd>
      <dt className="text-slate-600">Email</dt>
      <dd className="break-all">{profile?.email ?? user.email ?? 'Not set'}</dd>
      <dt className="text-slate-600">Plan</dt>
      <dd>
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tierBadge(tier).className}`}>
          {getPlanForTier(tier).name}
        </span>
      </dd>
      <dt className="text-slate-600">Member Since</dt>
      <dd>{formatDate(profile?.createdAt)}</dd>
      <dt className="text-slate-600">Last Login</dt>
      <dd>{formatDate(profile?.lastLoginAt)}</dd>
      <dt className="text-slate-600">Signed in with</dt>
      <dd>{user.provider === 'google' ? 'Google' : 'GitHub'}</dd>
    </dl>
  );
}
