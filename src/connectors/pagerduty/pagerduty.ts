import { randomUUID } from 'node:crypto';
import type { FindingStatus } from '../../model/contract.ts';
import { TEST_ITEM_TITLE } from '../../model/integrations.ts';
import { ConnectorError } from '../http/error.ts';
import { type Json, type TrackerCallOptions, trackerCall } from '../tracker/call.ts';
import type { Tracker } from '../tracker/tracker.ts';

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com';

const SEVERITY: Record<FindingStatus, string> = { claimable: 'critical', likely: 'error', review: 'warning' };

/** Where a routing key is found, said with each refusal of one. */
const WHERE_KEYS_ARE =
  'copy the Integration Key of an Events API v2 integration on the PagerDuty service (Integrations tab)';

/**
 * PagerDuty's known refusals of an event in plain words (it says them all as "Event object is
 * invalid" and a list); anything else as the client said it.
 */
function plainly(error: unknown): never {
  if (!(error instanceof ConnectorError) || error.retry || error.status !== 400) throw error;
  const detail = error.detail ?? '';
  if (/routing.key/i.test(detail) && /length|characters/i.test(detail))
    throw error.reworded(`A PagerDuty routing key is 32 characters long: ${WHERE_KEYS_ARE}`);
  if (/routing.key/i.test(detail))
    throw error.reworded(`PagerDuty knows no service by this routing key: ${WHERE_KEYS_ARE}`);
  throw error.reworded('PagerDuty refused the alert DangleWatch sent');
}

/** PagerDuty Events API v2: the finding's key is the dedup key; trigger when open, resolve when closed. */
export function pagerduty(credentials: Json, base: string, options: TrackerCallOptions): Tracker {
  const send = (event: Json) =>
    trackerCall(
      'PagerDuty',
      `${base.replace(/\/$/, '')}/v2/enqueue`,
      { method: 'POST', headers: {}, body: { routing_key: credentials.routingKey, ...event } },
      options,
    ).catch(plainly);
  const testPair = async () => {
    const dedup = `dw-test-${randomUUID()}`;
    await send({
      event_action: 'trigger',
      dedup_key: dedup,
      payload: {
        summary: `${TEST_ITEM_TITLE}: this integration works`,
        source: 'danglewatch',
        severity: 'info',
      },
    });
    await send({ event_action: 'resolve', dedup_key: dedup });
  };
  return {
    verify: testPair,
    test: testPair,
    async open(item) {
      await send({
        event_action: 'trigger',
        dedup_key: item.key,
        payload: {
          summary: item.title.slice(0, 1024),
          source: item.subdomain,
          severity: SEVERITY[item.status],
          component: item.service,
          custom_details: {
            key: item.key,
            domain: item.domain,
            target: item.target,
            status: item.status,
            details: item.body,
          },
        },
        links: [{ href: item.link, text: 'The finding in DangleWatch' }],
      });
      return item.key;
    },
    async close(item, _ref, reason) {
      await send({
        event_action: 'resolve',
        dedup_key: item.key,
        payload: { summary: reason.slice(0, 1024), source: item.subdomain, severity: SEVERITY[item.status] },
      });
      return item.key;
    },
  };
}
