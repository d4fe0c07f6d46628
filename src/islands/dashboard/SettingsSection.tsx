import { useEffect, useState } from 'react';
import { useAuth } from '../auth/auth-context.tsx';
import { ApiKeysPanel } from './settings/ApiKeysPanel.tsx';
import { DataTab } from './settings/DataTab.tsx';
import { DnsConnectionsPanel } from './settings/DnsConnectionsPanel.tsx';
import { MembersPanel } from './settings/MembersPanel.tsx';
import { PlanTab } from './settings/PlanTab.tsx';
import { ProfileTab } from './settings/ProfileTab.tsx';
import { WebhooksPanel } from './settings/WebhooksPanel.tsx';

type Tab = 'profile' | 'members' | 'plan' | 'alerts' | 'dns' | 'api' | 'data';
const TABS: { id: Tab; label: string }[] = [
  { id: 'profile', label: 'Profile' },
  { id: 'members', label: 'Members' },
  { id: 'plan', label: 'Plan' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'dns', label: 'DNS' },
  { id: 'api', label: 'API' },
  { id: 'data', label: 'Data' },
];

function tabFrom(search: string): Tab {
  const wanted = new URLSearchParams(search).get('tab');
  // Checkout returns use tab=billing: that is the plan tab.
  if (wanted === 'billing') return 'plan';
  return TABS.some((t) => t.id === wanted) ? (wanted as Tab) : 'profile';
}

/** 'Your DangleWatch Account': the settings tabs; each tab is its own component. */
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
  if (!auth.user) return <p>Please sign in to access settings</p>;

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
        {tab === 'profile' && <ProfileTab />}
        {tab === 'members' && <MembersPanel />}
        {tab === 'plan' && <PlanTab />}
        {tab === 'alerts' && <WebhooksPanel />}
        {tab === 'dns' && <DnsConnectionsPanel />}
        {tab === 'api' && <ApiKeysPanel />}
        {tab === 'data' && <DataTab />}
      </div>
    </section>
  );
}
