import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jiraChoices } from '../../../../src/connectors/jira/jira.ts';
import { jiraSite } from '../../../../src/core/integrations/targets.ts';
import { loadConfig } from '../../../../src/start/config.ts';
import { integrationUrls } from '../../../../src/start/engine-settings.ts';
import { type DnsFixture, startDnsServer } from '../../../fixtures/dns-server.ts';
import { type JiraFixture, startJira } from '../../../fixtures/trackers/jira.ts';
import { refusal } from '../../../helpers/tracker.ts';

describe("the admin's Jira site, as the configuration has the server reach it", () => {
  let dns: DnsFixture;
  let jira: JiraFixture;
  beforeAll(async () => {
    dns = await startDnsServer();
    jira = await startJira();
    jira.accounts.add('ann@acme.com:ATATT-fixture');
    jira.projects.set('OPS', { issueTypes: ['Bug'], name: 'Operations' });
    // A name only the scan resolvers know: this machine's resolver has never heard of it.
    dns.add('acme-jira.danglewatch-fixture.test', { type: 'A', data: '127.0.0.1' });
    dns.add('intranet-jira.danglewatch-fixture.test', { type: 'A', data: '10.1.2.3' });
  });
  afterAll(async () => {
    await jira?.close();
    await dns?.close();
  });
  const credentials = { email: 'ann@acme.com', apiToken: 'ATATT-fixture' };
  const urls = () =>
    integrationUrls(loadConfig({ SCAN_RESOLVERS: `127.0.0.1:${dns.port}`, SCAN_ALLOW_PRIVATE: 'true' }));

  it('is resolved through SCAN_RESOLVERS and reached at the address they gave', async () => {
    const port = new URL(jira.url).port;
    const choices = await jiraChoices(
      `http://acme-jira.danglewatch-fixture.test:${port}`,
      credentials,
      undefined,
      jiraSite(urls()),
    );
    expect(choices.projects).toEqual([{ key: 'OPS', name: 'Operations' }]);
    expect(dns.queries.some((q) => q.name === 'acme-jira.danglewatch-fixture.test')).toBe(true);
  });

  it('refuses a name the scan resolvers point at a private address, without connecting', async () => {
    const asked = jira.requests.length;
    const error = await refusal(
      jiraChoices('https://intranet-jira.danglewatch-fixture.test', credentials, undefined, jiraSite(urls())),
    );
    expect(error).toMatchObject({
      failure: 'address',
      message: 'The Jira host intranet-jira.danglewatch-fixture.test does not resolve to a public address',
    });
    expect(jira.requests.length).toBe(asked);
  });
});
