import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $currentWorkspace } from '../../lib/dashboard/workspaces.ts';
import { can, type WorkspaceAction } from '../../model/workspaces.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { ActivityPanel } from './settings/ActivityPanel.tsx';
import { ApiKeysPanel } from './settings/ApiKeysPanel.tsx';
import { CloudAccountsPanel } from './settings/CloudAccountsPanel.tsx';
import { DataTab } from './settings/DataTab.tsx';
import { DnsConnectionsPanel } from './settings/DnsConnectionsPanel.tsx';
import { IntegrationsPanel } from './settings/IntegrationsPanel.tsx';
import { MembersPanel } from './settings/MembersPanel.tsx';
import { PlanTab } from './settings/PlanTab.tsx';
import { ProfileTab } from './settings/ProfileTab.tsx';
import { panelId, SettingsTabList, tabId } from './settings/SettingsTabList.tsx';
import { WebhooksPanel } from './settings/WebhooksPanel.tsx';

type Tab =
  | 'profile'
  | 'members'
  | 'activity'
  | 'plan'
  | 'alerts'
  | 'integrations'
  | 'dns'
  | 'cloud'
  | 'api'
  | 'data';
/** The tabs; one with `needs` shows only to a role that may do it (webhooks, integrations, connections, keys: admins). */
const TABS: { id: Tab; label: string; needs?: WorkspaceAction }[] = [
  { id: 'profile', label: 'Profile' },
  { id: 'members', label: 'Members' },
  { id: 'activity', label: 'Activity' },
  { id: 'plan', label: 'Plan' },
  { id: 'alerts', label: 'Alerts', needs: 'webhooks.manage' },
  { id: 'integrations', label: 'Integrations', needs: 'integrations.manage' },
  { id: 'dns', label: 'DNS', needs: 'dns-connections.manage' },
  { id: 'cloud', label: 'Cloud', needs: 'cloud-accounts.manage' },
  { id: 'api', label: 'API', needs: 'api-keys.manage' },
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
  const workspace = useStore($currentWorkspace);
  const [wanted, setTab] = useState<Tab>(() =>
    typeof window === 'undefined' ? 'profile' : tabFrom(window.location.search),
  );
  // Without a workspace list the calls act on the personal workspace, which the caller owns.
  const tabs = TABS.filter((t) => !t.needs || !workspace || can(workspace.role, t.needs));
  const tab = tabs.some((t) => t.id === wanted) ? wanted : 'profile';
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
      <SettingsTabList tabs={tabs} selected={tab} onSelect={choose} />
      <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} className="mt-6">
        {tab === 'profile' && <ProfileTab />}
        {tab === 'members' && <MembersPanel />}
        {tab === 'activity' && <ActivityPanel />}
        {tab === 'plan' && <PlanTab />}
        {tab === 'alerts' && <WebhooksPanel />}
        {tab === 'integrations' && <IntegrationsPanel />}
        {tab === 'dns' && <DnsConnectionsPanel />}
        {tab === 'cloud' && <CloudAccountsPanel />}
        {tab === 'api' && <ApiKeysPanel />}
        {tab === 'data' && <DataTab />}
      </div>
    </section>
  );
}
