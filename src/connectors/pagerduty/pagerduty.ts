import { randomUUID } from 'node:crypto';
import type { FindingStatus } from '../../model/contract.ts';
import { TEST_ITEM_TITLE } from '../../model/integrations.ts';
import { type Json, type TrackerCallOptions, trackerCall } from '../tracker/call.ts';
import type { Tracker } from '../tracker/tracker.ts';

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com';

const SEVERITY: Record<FindingStatus, string> = { claimable: 'critical', likely: 'error', review: 'warning' };

/** PagerDuty Events API v2: the finding's key is the dedup key; trigger when open, resolve when closed. */
export function pagerduty(credentials: Json, base: string, options: TrackerCallOptions): Tracker {
  const send = (event: Json) =>
    trackerCall(
      'PagerDuty',
      `${base.replace(/\/$/, '')}/v2/enqueue`,
      { method: 'POST', headers: {}, body: { routing_key: credentials.routingKey, ...event } },
      options,
    );
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
