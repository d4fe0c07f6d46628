import type { DnsProviderId, InventorySource } from '../../model/contract.ts';
import type { CredentialField } from '../../model/credential-field.ts';

/** A DNS provider as the connect form shows it, with the least privilege to grant it. */
export interface DnsProviderInfo {
  id: DnsProviderId;
  label: string;
  fields: readonly CredentialField[];
  /** The one permission to grant, in a line. */
  privilege: string;
  steps: readonly string[];
  /** A policy to paste as is, when the provider takes one. */
  policy?: string;
}

/**
 * Route 53's IAM policy: the three read calls DangleWatch makes, nothing else (GetHostedZone gives
 * the zone's delegation set, which public DNS must name for the zone to prove ownership).
 */
const ROUTE53_POLICY = JSON.stringify(
  {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: ['route53:ListHostedZones', 'route53:GetHostedZone', 'route53:ListResourceRecordSets'],
        Resource: '*',
      },
    ],
  },
  null,
  2,
);

/** The providers DangleWatch reads zones from (the server's PROVIDER_IDS), in the form's order. */
export const DNS_PROVIDERS: readonly DnsProviderInfo[] = [
  {
    id: 'cloudflare',
    label: 'Cloudflare',
    fields: [{ key: 'apiToken', label: 'API token', input: 'password', placeholder: 'Cloudflare API token' }],
    privilege: 'An API token with Zone:Read and DNS:Read, nothing more.',
    steps: [
      'In the Cloudflare dashboard open My Profile, then API Tokens, and press Create Token.',
      'Choose Create Custom Token. Permissions: Zone, Zone, Read and Zone, DNS, Read.',
      'Zone Resources: Include, All zones (or only the zones to monitor).',
      'Create the token and paste it below. It is shown once by Cloudflare and never again by DangleWatch.',
    ],
  },
  {
    id: 'route53',
    label: 'AWS Route 53',
    fields: [
      { key: 'accessKeyId', label: 'Access key ID', input: 'password', placeholder: 'AKIA…' },
      {
        key: 'secretAccessKey',
        label: 'Secret access key',
        input: 'password',
        placeholder: 'Secret access key',
      },
    ],
    privilege:
      'An IAM user allowed only route53:ListHostedZones, route53:GetHostedZone and route53:ListResourceRecordSets.',
    steps: [
      'In the IAM console create a user for DangleWatch, with no console access.',
      'Attach an inline policy with exactly this JSON:',
      'Create an access key for the user (use case: Application running outside AWS) and paste both parts below.',
    ],
    policy: ROUTE53_POLICY,
  },
  {
    id: 'digitalocean',
    label: 'DigitalOcean',
    fields: [{ key: 'token', label: 'API token', input: 'password', placeholder: 'dop_v1_…' }],
    privilege: 'A personal access token with the Read scope only.',
    steps: [
      'In the DigitalOcean control panel open API, then Tokens, and press Generate New Token.',
      'Scopes: Read Only (no Write). Choose an expiry that suits you.',
      'Generate the token and paste it below.',
    ],
  },
  {
    id: 'gcloud',
    label: 'Google Cloud DNS',
    fields: [
      {
        key: 'serviceAccountJson',
        label: 'Service account key (JSON)',
        input: 'textarea',
        placeholder: '{ "type": "service_account", … }',
      },
    ],
    privilege: 'A service account with the role roles/dns.reader (DNS Reader) on the project.',
    steps: [
      'In the Google Cloud console open IAM & Admin, then Service Accounts, and create one for DangleWatch.',
      'Grant it the role DNS Reader (roles/dns.reader) on the project that holds your zones, and no other.',
      'Open the account, then Keys, Add key, Create new key, JSON; paste the whole file below.',
    ],
  },
];

export function dnsProvider(id: DnsProviderId): DnsProviderInfo {
  const provider = DNS_PROVIDERS.find((p) => p.id === id);
  if (!provider) throw new Error(`Unknown DNS provider: ${id}`);
  return provider;
}

/** How an inventory's source reads in a sentence: 'from Cloudflare', 'from a zone file'. */
export function inventorySourceLabel(source: InventorySource): string {
  return source === 'zone-file' ? 'a zone file' : dnsProvider(source).label;
}

/**
 * What a verified domain's ownership stands on, in the card's words; `parent`, the proven domain of
 * this workspace whose proof covers it as a subdomain (lib/dashboard/proven-parent.ts).
 */
export function proofLabel(
  proof: 'zone' | 'txt' | 'shared',
  source: InventorySource | undefined,
  parent?: string,
): string {
  if (proof === 'txt') return 'TXT record';
  if (proof === 'shared')
    return parent ? `Covered by the proof of ${parent}` : 'Your proof of it in another of your workspaces';
  return source && source !== 'zone-file'
    ? `Delegated to this ${dnsProvider(source).label} zone`
    : 'Delegated to its connected DNS zone';
}
