import { aws } from '../aws/cloud.ts';
import { azure } from '../azure/cloud.ts';
import { digitalocean } from '../digitalocean/cloud.ts';
import { gcloud } from '../gcloud/cloud.ts';
import type { CloudId, CloudProvider } from './provider.ts';

/** The clouds whose accounts can be read, by id. */
export const cloudProviders: Record<CloudId, CloudProvider<never>> = {
  aws: aws as CloudProvider<never>,
  azure: azure as CloudProvider<never>,
  digitalocean: digitalocean as CloudProvider<never>,
  gcloud: gcloud as CloudProvider<never>,
};
