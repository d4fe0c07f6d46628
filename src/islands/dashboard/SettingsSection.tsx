import { useEffect, useState } from 'react';
import { tierBadge } from '../../lib/auth/profile.ts';
import { formatPrice, getPlan, PLANS, type PlanId } from '../../lib/plans.ts';
import { Avatar } from '../auth/Avatar.tsx';
import { useAuth } from '../auth/auth-context.tsx';
import { ApiKeysPanel } from './settings/ApiKeysPanel.tsx';
import { WebhooksPanel } from './settings/WebhooksPanel.tsx';

type Tab = 'profile' | 'plan' | 'alerts' | 'api' | 'data';
const TABS: { id: Tab; label: string }[] = [
  { id: 'profile', label: 'Profile' },
  { id: 'plan', label: 'Plan' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'api', label: 'API' },
  { id: 'data', label: 'Data' },
];

function tabFrom(search: string): Tab {
  const wanted = new URLSearchParams(search).get('tab');
  // Checkout returns use tab=billing (spec 2 §2): that is the plan tab.
  if (wanted === 'billing') return 'plan';
  return TABS.some((t) => t.id === wanted) ? (wanted as Tab) : 'profile';
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
const formatDate = (iso: string | undefined) => (iso ? dateFormat.format(new Date(iso)) : 'Unknown');

export function SettingsSection() {
  const auth = useAuth();
  const [tab, setTab] = useState<Tab>(() =>
    typeof window === 'undefined' ? 'profile' : tabFrom(window.location.search),
  );
  useEffect(() => {
    const onPop = () => setTab(tabFrom(window.location.search));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const choose = (next: Tab) => {
    setTab(next);
    window.history.replaceState(null, '', `/dashboard?section=settings&tab=${next}`);
  };
  const user = auth.user;
  const profile = auth.userProfile;
  if (!user) return <p>Please sign in to access settings</p>;
  const tier = profile?.tier ?? 'free';
  const planId = (tier === 'pro' ? 'pro-solo' : tier) as PlanId;
  const plan = PLANS.some((p) => p.id === planId) ? getPlan(planId) : getPlan('free');

  return (
    <section aria-labelledby="settings-heading">
      <h1 id="settings-heading" className="text-2xl font-bold text-ink">
        Your DangleWatch Account
      </h1>
      <div role="tablist" aria-label="Settings" className="mt-4 flex gap-2 border-b border-slate-200">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 aria-selected:border-brand-600 aria-selected:text-brand-700"
            onClick={() => choose(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" className="mt-6">
        {tab === 'profile' && (
          <dl className="grid max-w-xl grid-cols-[10rem_1fr] gap-x-4 gap-y-3 text-sm">
            <dt className="text-slate-500">Avatar</dt>
            <dd>
              <Avatar
                photoURL={profile?.photoURL ?? user.photoURL}
                displayName={profile?.displayName ?? user.displayName}
                email={user.email}
                size="lg"
              />
            </dd>
            <dt className="text-slate-500">Display name</dt>
            <dd>{profile?.displayName ?? user.displayName ?? 'Not set'}</dd>
            <dt className="text-slate-500">Email</dt>
            <dd>{profile?.email ?? user.email ?? 'Not set'}</dd>
            <dt className="text-slate-500">Plan</dt>
            <dd>
              <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tierBadge(tier).className}`}>
                {plan.name}
              </span>
            </dd>
            <dt className="text-slate-500">Member Since</dt>
            <dd>{formatDate(profile?.createdAt)}</dd>
            <dt className="text-slate-500">Last Login</dt>
            <dd>{formatDate(profile?.lastLoginAt)}</dd>
            <dt className="text-slate-500">Signed in with</dt>
            <dd>{user.provider === 'google' ? 'Google' : 'GitHub'}</dd>
          </dl>
        )}
        {tab === 'plan' && (
          <div className="max-w-xl rounded-lg border border-slate-200 p-4" data-testid="current-plan">
            <p className="text-sm text-slate-500">Current plan</p>
            <p className="text-xl font-semibold text-ink">
              {plan.name} · {formatPrice(plan.priceCents)}/month
            </p>
            <ul className="mt-2 list-inside list-disc text-sm text-slate-700">
              {plan.features.map((feature) => (
                <li key={feature}>{feature}</li>
              ))}
            </ul>
            {tier === 'free' && (
              <p className="mt-4 text-sm text-slate-600">
                Paid plans, billing and invoices arrive with billing; see{' '}
                <a className="underline" href="/pricing">
                  pricing
                </a>
                .
              </p>
            )}
          </div>
        )}
        {tab === 'alerts' && <WebhooksPanel />}
        {tab === 'api' && <ApiKeysPanel />}
        {tab === 'data' && (
          <div className="max-w-xl text-sm text-slate-700">
            <h2 className="text-lg font-semibold text-ink">Your data</h2>
            <p className="mt-2">
              Data export and account deletion are not available yet. Until they are, write to support and we
              will export or delete your data.
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
