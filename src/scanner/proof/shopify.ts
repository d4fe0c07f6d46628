import { apiRequest } from '../../connectors/proof/api.ts';
import type { Detected } from '../types.ts';
import { type CheckRun, free, type ProofCheck, type Subject, taken, unknown } from './check.ts';
import { failure } from './failure.ts';

const SHOP = /^([a-z0-9][a-z0-9-]*)\.myshopify\.com$/;

/**
 * A record to `<shop>.myshopify.com`: Shopify's sign-up form asks whether a shop name is free
 * (`check_availability.json`, anonymous), and answers `"status": "available"` or `"unavailable"`.
 * A free shop name confirms the finding but does not raise it: Shopify also checks the custom
 * domain's DNS, so claims work only in some cases. `shops.myshopify.com` is Shopify's own target.
 */
export const shopifyCheck: ProofCheck = {
  id: 'shopify',
  provider: 'shopify',
  subject(finding: Detected): Subject | undefined {
    if (finding.service !== 'Shopify') return undefined;
    const shop = SHOP.exec(finding.target)?.[1];
    return shop && shop !== 'shops' ? { name: shop } : undefined;
  },
  where: (_subject, { settings }) => settings.shopifyUrl,
  async ask(subject, { settings, signal }: CheckRun) {
    const url = `${settings.shopifyUrl}/services/signup/check_availability.json?shop_name=${encodeURIComponent(subject.name)}&email=${encodeURIComponent('probe@example.com')}`;
    let response: Awaited<ReturnType<typeof apiRequest>>;
    try {
      response = await apiRequest(
        'Shopify',
        url,
        { headers: { accept: 'application/json' } },
        settings,
        signal,
      );
    } catch (error) {
      return failure('Shopify', error);
    }
    if (response.status !== 200) return unknown(`Shopify answered ${response.status}`);
    let status: unknown;
    try {
      status = (JSON.parse(response.body) as { status?: unknown }).status;
    } catch {
      return unknown('Shopify answered something other than JSON');
    }
    if (status === 'available') return free(subject.name, 'status: available');
    if (status === 'unavailable') return taken(subject.name, 'status: unavailable');
    return unknown(`Shopify answered status ${JSON.stringify(status)}`);
  },
};
