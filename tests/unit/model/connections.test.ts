import { describe, expect, it } from 'vitest';
import { serviceBesideName } from '../../../src/model/connections.ts';
import { INTEGRATION_LABELS } from '../../../src/model/integrations.ts';

describe("a connection card's title", () => {
  it.each(Object.values(INTEGRATION_LABELS))('does not repeat %s beside a name that says it', (service) => {
    expect(serviceBesideName(service, service)).toBeNull();
    expect(serviceBesideName(`${service.split(' ')[0]?.toLowerCase()} (prod)`, service)).toBeNull();
  });

  it('adds the service to a name that does not say it', () => {
    expect(serviceBesideName('On call', 'PagerDuty')).toBe('PagerDuty');
    expect(serviceBesideName('Ops board', 'Jira Cloud')).toBe('Jira Cloud');
  });
});
