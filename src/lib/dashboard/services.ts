import { getIdToken } from '../auth/actions.ts';
import {
  type AccountService,
  type ApiKeyService,
  type AuthService,
  accountService,
  apiKeyService,
  authService,
  type BillingService,
  billingService,
  type CloudAccountService,
  cloudAccountService,
  createAuthedClient,
  type DnsConnectionService,
  type DomainService,
  dnsConnectionService,
  domainService,
  type FindingService,
  findingService,
  type IntegrationService,
  integrationService,
  type ScanService,
  scanService,
  type WebhookService,
  type WorkspaceService,
  webhookService,
  workspaceService,
} from '../request/api.ts';
import { $workspaceId, loadWorkspaces, workspaceGone } from './workspaces.ts';

interface DashboardApi {
  scans: ScanService;
  domains: DomainService;
  findings: FindingService;
  webhooks: WebhookService;
  integrations: IntegrationService;
  apiKeys: ApiKeyService;
  dnsConnections: DnsConnectionService;
  cloudAccounts: CloudAccountService;
  auth: AuthService;
  billing: BillingService;
  account: AccountService;
  workspaces: WorkspaceService;
}

let api: DashboardApi | undefined;

/**
 * The dashboard's calls, through the authed request layer with the signed-in user's token. Domains,
 * scans, findings, webhooks, API keys, DNS connections and billing act on the current workspace
 * (sent as X-Workspace-ID); the account and the workspace calls themselves are the caller's own.
 * A scoped call that finds the current workspace gone sends the dashboard home (workspaceGone).
 */
export function dashboardApi(): DashboardApi {
  if (!api) {
    const own = createAuthedClient(getIdToken);
    const scoped = createAuthedClient(getIdToken, {
      workspaceId: () => $workspaceId.get(),
      // Gone since the list was read: home at once, and the list read again (roles, counts).
      onWorkspaceGone: (id) => {
        if (workspaceGone(id)) void loadWorkspaces(workspaceService(own));
      },
    });
    api = {
      scans: scanService(scoped),
      domains: domainService(scoped),
      findings: findingService(scoped),
      webhooks: webhookService(scoped),
      integrations: integrationService(scoped),
      apiKeys: apiKeyService(scoped),
      dnsConnections: dnsConnectionService(scoped),
      cloudAccounts: cloudAccountService(scoped),
      auth: authService(own),
      billing: billingService(scoped),
      account: accountService(own),
      workspaces: workspaceService(own),
    };
  }
  return api;
}
