import { getIdToken } from '../auth/actions.ts';
import {
  type AccountService,
  type ApiKeyService,
  type AuthService,
  accountService,
  apiKeyService,
  authService,
  createAuthedClient,
  type DnsConnectionService,
  type DomainService,
  dnsConnectionService,
  domainService,
  type FindingService,
  findingService,
  type ScanService,
  scanService,
  type WebhookService,
  webhookService,
} from '../request/api.ts';

interface DashboardApi {
  scans: ScanService;
  domains: DomainService;
  findings: FindingService;
  webhooks: WebhookService;
  apiKeys: ApiKeyService;
  dnsConnections: DnsConnectionService;
  auth: AuthService;
  account: AccountService;
}

let api: DashboardApi | undefined;

/** The dashboard's calls, through the authed request layer with the signed-in user's token. */
export function dashboardApi(): DashboardApi {
  if (!api) {
    const client = createAuthedClient(getIdToken);
    api = {
      scans: scanService(client),
      domains: domainService(client),
      findings: findingService(client),
      webhooks: webhookService(client),
      apiKeys: apiKeyService(client),
      dnsConnections: dnsConnectionService(client),
      auth: authService(client),
      account: accountService(client),
    };
  }
  return api;
}
