import { aws } from './aws.ts';
import { azure } from './azure.ts';
import { digitalocean } from './digitalocean.ts';
import { gcloud } from './gcloud.ts';
import type { CloudId, CloudProvider } from './provider.ts';

/** The clouds whose accounts can be read, by id. */
export const cloudProviders: Record<CloudId, CloudProvider<never>> = {
  aws: aws as CloudProvider<never>,
  azure: azure as CloudProvider<never>,
  digitalocean: digitalocean as CloudProvider<never>,
  gcloud: gcloud as CloudProvider<never>,
};
