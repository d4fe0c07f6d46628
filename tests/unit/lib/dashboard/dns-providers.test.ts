import { describe, expect, it } from 'vitest';
import { credentialSchemas, PROVIDER_IDS } from '../../../../src/connectors/dns/provider.ts';
import {
  DNS_PROVIDERS,
  dnsProvider,
  inventorySourceLabel,
} from '../../../../src/lib/dashboard/dns-providers.ts';
import { DNS_PROVIDER_IDS } from '../../../../src/model/contract.ts';

describe('the DNS provider table the connect form is built from', () => {
  it('names every provider the server reads, and only those, in the contract and the table', () => {
    expect([...DNS_PROVIDER_IDS].sort()).toEqual([...PROVIDER_IDS].sort());
    expect(DNS_PROVIDERS.map((p) => p.id).sort()).toEqual([...PROVIDER_IDS].sort());
  });

  it("asks for exactly the credential fields the server's schema checks", () => {
    for (const provider of DNS_PROVIDERS) {
      const schema = credentialSchemas[provider.id];
      expect(provider.fields.map((f) => f.key).sort()).toEqual(Object.keys(schema.shape).sort());
      const filled = Object.fromEntries(provider.fields.map((f) => [f.key, `value of ${f.key}`]));
      expect(schema.safeParse(filled).success).toBe(true);
      const missing = Object.fromEntries(provider.fields.slice(1).map((f) => [f.key, 'x']));
      expect(schema.safeParse(missing).success).toBe(false);
    }
  });

  it('keeps secrets in password inputs and the service-account key in a textarea', () => {
    expect(dnsProvider('cloudflare').fields.map((f) => f.input)).toEqual(['password']);
    expect(dnsProvider('route53').fields.map((f) => f.input)).toEqual(['password', 'password']);
    expect(dnsProvider('digitalocean').fields.map((f) => f.input)).toEqual(['password']);
    expect(dnsProvider('gcloud').fields.map((f) => f.input)).toEqual(['textarea']);
  });

  it('guides each provider to the least privilege', () => {
    expect(dnsProvider('cloudflare').privilege).toContain('Zone:Read and DNS:Read');
    expect(dnsProvider('digitalocean').privilege).toMatch(/Read scope only/);
    expect(dnsProvider('gcloud').privilege).toContain('roles/dns.reader');
    const policy = JSON.parse(dnsProvider('route53').policy ?? '{}');
    expect(policy.Statement).toHaveLength(1);
    expect(policy.Statement[0].Effect).toBe('Allow');
    expect(policy.Statement[0].Action).toEqual([
      'route53:ListHostedZones',
      'route53:GetHostedZone',
      'route53:ListResourceRecordSets',
    ]);
    expect(DNS_PROVIDERS.filter((p) => p.policy).map((p) => p.id)).toEqual(['route53']);
  });

  it('names inventory sources in a sentence', () => {
    expect(inventorySourceLabel('cloudflare')).toBe('Cloudflare');
    expect(inventorySourceLabel('route53')).toBe('AWS Route 53');
    expect(inventorySourceLabel('zone-file')).toBe('a zone file');
    expect(() => dnsProvider('bind' as never)).toThrow('Unknown DNS provider: bind');
  });
});
