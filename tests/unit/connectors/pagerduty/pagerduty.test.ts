import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagerduty } from '../../../../src/connectors/pagerduty/pagerduty.ts';
import { type PagerDutyFixture, startPagerDuty } from '../../../fixtures/trackers/pagerduty.ts';
import { item, refusal } from '../../../helpers/tracker.ts';

const ROUTING_KEY = 'R'.repeat(32);

describe('PagerDuty Events API v2 against a loopback stand-in', () => {
  let pd: PagerDutyFixture;
  beforeAll(async () => {
    pd = await startPagerDuty();
    pd.routingKeys.add(ROUTING_KEY);
  });
  afterAll(() => pd?.close());
  const target = (routingKey = ROUTING_KEY) => pagerduty({ routingKey }, pd.url, { timeoutMs: 1_000 });

  it('checks a routing key by a dw-test trigger and its resolve', async () => {
    await target().verify();
    const tests = [...pd.alerts.entries()].filter(([k]) => k.startsWith('dw-test-'));
    expect(tests).toHaveLength(1);
    expect(tests[0]?.[1]).toMatchObject({ status: 'resolved', triggers: 1, resolves: 1 });
  });

  it("refuses an unknown key with PagerDuty's own reason, not to be retried", async () => {
    const error = await refusal(target('x'.repeat(32)).verify());
    // Not "PagerDuty refused: Event object is invalid…": what is wrong and where the right key is.
    expect(error.message).toBe(
      'PagerDuty knows no service by this routing key: copy the Integration Key of an Events API v2 integration on the PagerDuty service (Integrations tab)',
    );
    expect(error.detail).toBe('Event object is invalid; Invalid routing key');
    const short = await refusal(target('x'.repeat(12)).verify());
    expect(short.message).toMatch(/^A PagerDuty routing key is 32 characters long: copy the Integration Key/);
    expect(short.detail).toContain("Length of 'routing_key' is incorrect");
    expect(error.retry).toBe(false);
  });

  it('triggers with the key as dedup key, the summary, source, component, details and link; resolves it', async () => {
    const key = 'dw:1111111111111111111111111111111111111111';
    expect(await target().open(item(key), null, null)).toBe(key);
    const alert = pd.alerts.get(key);
    expect(alert?.status).toBe('triggered');
    expect(alert?.last).toMatchObject({
      event_action: 'trigger',
      dedup_key: key,
      payload: { source: 'old.acme.com', severity: 'critical', component: 'Heroku', custom_details: { key } },
      links: [{ href: item(key).link }],
    });
    await target().close(item(key), key, 'Fixed.');
    expect(pd.alerts.get(key)?.status).toBe('resolved');
  });

  it('a 429, a 5xx or a timeout is worth retrying', async () => {
    pd.faults.push({
      status: 429,
      body: { status: 'throttle event', message: 'Requests for this service are arriving too quickly' },
    });
    expect((await refusal(target().open(item('dw:2'), null, null))).retry).toBe(true);
    pd.faults.push({ status: 502, body: {} });
    expect((await refusal(target().open(item('dw:2'), null, null))).retry).toBe(true);
    pd.faults.push('hang');
    const timeout = await refusal(target().open(item('dw:2'), null, null));
    expect(timeout.retry).toBe(true);
    expect(timeout.message).toMatch(/did not answer within/);
  });
});
