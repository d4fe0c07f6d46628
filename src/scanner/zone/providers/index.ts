import type { z } from 'zod';
import type { credentialSchemas, ProviderId } from '../../../connectors/dns/provider.ts';
import { cloudflare } from './cloudflare.ts';
import { digitalocean } from './digitalocean.ts';
import { gcloud } from './gcloud.ts';
import type { DnsProvider } from './provider.ts';
import { route53 } from './route53.ts';

type ProviderCredentials<K extends ProviderId> = z.infer<(typeof credentialSchemas)[K]>;

/** Every provider DangleWatch reads zones from, by id. */
export const providers: { [K in ProviderId]: DnsProvider<ProviderCredentials<K>> } = {
  cloudflare,
  route53,
  digitalocean,
  gcloud,
};
