import { type ApiResponse, apiRequest } from '../../connectors/proof/api.ts';
import type { ProofCheckId } from '../../model/proof.ts';
import type { Detected } from '../types.ts';
import { type CheckRun, free, type Outcome, type ProofCheck, type Subject, taken, unknown } from './check.ts';
import { failure } from './failure.ts';
import type { ProofSettings } from './settings.ts';

/**
 * One Azure name family: the host names of its resources, and the ARM availability check that
 * answers for the name. Data: a row per family.
 */
interface AzureFamily {
  id: ProofCheckId;
  /** The target; group 1 is the resource name, group 2 (cloudapp) the location. */
  host: RegExp;
  /** The request, from the management URL, the subscription and the subject. */
  request(
    base: string,
    subscription: string,
    subject: Subject,
  ): { method: 'GET' | 'POST'; url: string; body?: object };
  /** The field that says the name is free, and its value when it is. */
  read(json: Record<string, unknown>): boolean | undefined;
}

const nameAvailable = (json: Record<string, unknown>) =>
  typeof json.nameAvailable === 'boolean' ? json.nameAvailable : undefined;

export const AZURE_FAMILIES: readonly AzureFamily[] = [
  {
    id: 'azure-traffic-manager',
    host: /^([a-z0-9][a-z0-9-]{0,61}[a-z0-9])\.trafficmanager\.net$/,
    request: (base, _sub, { name }) => ({
      method: 'POST',
      url: `${base}/providers/Microsoft.Network/checkTrafficManagerNameAvailability?api-version=2022-04-01`,
      body: { name, type: 'Microsoft.Network/trafficManagerProfiles' },
    }),
    read: nameAvailable,
  },
  {
    id: 'azure-app-service',
    host: /^([a-z0-9][a-z0-9-]{0,58}[a-z0-9])\.azurewebsites\.net$/,
    request: (base, sub, { name }) => ({
      method: 'POST',
      url: `${base}/subscriptions/${sub}/providers/Microsoft.Web/checknameavailability?api-version=2024-04-01`,
      body: { name, type: 'Microsoft.Web/sites' },
    }),
    read: nameAvailable,
  },
  {
    id: 'azure-cloudapp',
    host: /^([a-z][a-z0-9-]{1,61}[a-z0-9])\.([a-z0-9]+)\.cloudapp\.azure\.com$/,
    request: (base, sub, { name, location }) => ({
      method: 'GET',
      url: `${base}/subscriptions/${sub}/providers/Microsoft.Network/locations/${location}/CheckDnsNameAvailability?domainNameLabel=${encodeURIComponent(name)}&api-version=2024-05-01`,
    }),
    read: (json) => (typeof json.available === 'boolean' ? json.available : undefined),
  },
  {
    id: 'azure-storage',
    // Blob and static-website endpoints (`<account>.z13.web.core.windows.net`).
    host: /^([a-z0-9]{3,24})\.(?:blob|(?:z\d+\.)?web)\.core\.windows\.net$/,
    request: (base, sub, { name }) => ({
      method: 'POST',
      url: `${base}/subscriptions/${sub}/providers/Microsoft.Storage/checkNameAvailability?api-version=2023-05-01`,
      body: { name, type: 'Microsoft.Storage/storageAccounts' },
    }),
    read: nameAvailable,
  },
  {
    id: 'azure-cdn',
    host: /^([a-z0-9][a-z0-9-]{0,48}[a-z0-9])\.azureedge\.net$/,
    request: (base, _sub, { name }) => ({
      method: 'POST',
      url: `${base}/providers/Microsoft.Cdn/checkNameAvailability?api-version=2024-02-01`,
      body: { name, type: 'Microsoft.Cdn/Profiles/Endpoints' },
    }),
    read: nameAvailable,
  },
  {
    id: 'azure-front-door',
    // Classic Front Door names; Standard and Premium endpoints carry a hash and are unique names.
    host: /^([a-z0-9][a-z0-9-]{3,62}[a-z0-9])\.azurefd\.net$/,
    request: (base, _sub, { name }) => ({
      method: 'POST',
      url: `${base}/providers/Microsoft.Network/checkFrontDoorNameAvailability?api-version=2021-06-01`,
      body: { name, type: 'Microsoft.Network/frontDoors' },
    }),
    read: (json) =>
      json.nameAvailability === 'Available'
        ? true
        : json.nameAvailability === 'Unavailable'
          ? false
          : undefined,
  },
];

/**
 * ARM tokens by client credentials, kept until a minute before they expire. Per process: a token
 * is the same for every scan, and a second process asking for its own costs one request.
 */
const tokens = new Map<string, { token: string; until: number }>();

async function armToken(settings: ProofSettings, signal: AbortSignal): Promise<string | Outcome> {
  const azure = settings.azure;
  if (!azure) return unknown('no Azure probe application configured');
  const key = `${settings.azureLoginUrl} ${azure.tenantId} ${azure.clientId} ${settings.azureManagementUrl}`;
  const held = tokens.get(key);
  if (held && held.until > Date.now()) return held.token;
  const response = await apiRequest(
    'Azure',
    `${settings.azureLoginUrl}/${encodeURIComponent(azure.tenantId)}/oauth2/v2.0/token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: azure.clientId,
        client_secret: azure.clientSecret,
        // The management API's own audience: https://management.azure.com/.default.
        scope: 'https://management.azure.com/.default',
      }).toString(),
    },
    settings,
    signal,
  );
  const json = parse(response);
  if (response.status !== 200 || typeof json?.access_token !== 'string')
    return unknown(
      `Azure sign-in answered ${response.status}${typeof json?.error === 'string' ? ` ${json.error}` : ''}`,
    );
  const seconds = Number(json.expires_in ?? 3599);
  tokens.set(key, { token: json.access_token, until: Date.now() + Math.max(0, seconds - 60) * 1000 });
  return json.access_token;
}

function parse(response: ApiResponse): Record<string, unknown> | undefined {
  try {
    const json = JSON.parse(response.body) as unknown;
    return json && typeof json === 'object' ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function armError(json: Record<string, unknown> | undefined): string {
  const error = json?.error as { code?: unknown } | undefined;
  return typeof error?.code === 'string' ? ` ${error.code}` : '';
}

/** The ARM check of one family, asked with the operator's Reader application. */
function azureCheck(family: AzureFamily): ProofCheck {
  return {
    id: family.id,
    provider: 'azure',
    needs: 'azure',
    subject(finding: Detected): Subject | undefined {
      const m = family.host.exec(finding.target);
      if (!m) return undefined;
      return m[2] ? { name: m[1] as string, location: m[2] } : { name: m[1] as string };
    },
    where: (subject, { settings }) => `${subject.location ?? ''} ${settings.azureManagementUrl}`,
    async ask(subject, { settings, signal }: CheckRun) {
      try {
        const token = await armToken(settings, signal);
        if (typeof token !== 'string') return token;
        const request = family.request(
          settings.azureManagementUrl,
          settings.azure?.subscriptionId ?? '',
          subject,
        );
        const response = await apiRequest(
          'Azure',
          request.url,
          {
            method: request.method,
            headers: {
              authorization: `Bearer ${token}`,
              accept: 'application/json',
              ...(request.body ? { 'content-type': 'application/json' } : {}),
            },
            ...(request.body ? { body: JSON.stringify(request.body) } : {}),
          },
          settings,
          signal,
        );
        const json = parse(response);
        if (response.status === 401 || response.status === 403) tokens.clear();
        if (response.status !== 200 || !json)
          return unknown(`Azure answered ${response.status}${armError(json)}`);
        const available = family.read(json);
        if (available === undefined) return unknown('Azure answered without saying whether the name is free');
        const reason = typeof json.reason === 'string' ? ` (${json.reason})` : '';
        const field =
          family.id === 'azure-cloudapp'
            ? 'available'
            : family.id === 'azure-front-door'
              ? 'nameAvailability'
              : 'nameAvailable';
        const said = `${field}: ${String(family.id === 'azure-front-door' ? json.nameAvailability : available)}${reason}`;
        return available ? free(subject.name, said) : taken(subject.name, said);
      } catch (error) {
        return failure('Azure', error);
      }
    },
  };
}

export const azureChecks: readonly ProofCheck[] = AZURE_FAMILIES.map(azureCheck);
