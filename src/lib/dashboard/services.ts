import { getIdToken } from '../auth/actions.ts';
import {
  type ApiKeyService,
  apiKeyService,
  createAuthedClient,
  type DomainService,
  domainService,
  type FindingService,
  findingService,
  type ScanService,
  scanService,
  type WebhookService,
  webhookService,
} from '../request/api.ts';

export interface DashboardApi {
  scans: ScanService;
  domains: DomainService;
  findings: FindingService;
  webhooks: WebhookService;
  apiKeys: ApiKeyService;
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
    };
  }
  return api;
}
