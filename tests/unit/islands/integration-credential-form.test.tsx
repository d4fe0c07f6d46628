import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { IntegrationCredentialForm } from '../../../src/islands/dashboard/settings/IntegrationCredentialForm.tsx';
import { INTEGRATION_FIELDS } from '../../../src/islands/dashboard/settings/integration-fields.ts';
import { INTEGRATION_KINDS, type IntegrationView } from '../../../src/model/integrations.ts';
import { integrationCredentialSchemas } from '../../../src/model/schemas.ts';

const view = (kind: IntegrationView['kind']): IntegrationView => ({
  id: '5c0c1f6e-2d4a-4c1e-9f7a-1a2b3c4d5e6f',
  kind,
  label: 'Tracker',
  minStatus: 'likely',
  settings: {},
  credentialHint: 'abcd',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastDelivery: null,
  failing: null,
  disabled: null,
  answeredBy: 'Olive (olive@acme.io)',
});
const noop = async () => {};

describe('Replace credential', () => {
  it("asks for exactly the fields the service's credential schema takes, secrets masked", () => {
    for (const kind of INTEGRATION_KINDS) {
      const names = INTEGRATION_FIELDS[kind].credentials.map((f) => f.name);
      expect(names.sort(), kind).toEqual(Object.keys(integrationCredentialSchemas[kind].shape).sort());
      const html = renderToStaticMarkup(
        <IntegrationCredentialForm integration={view(kind)} onReplaced={noop} onCancel={() => {}} />,
      );
      expect(html).toContain('aria-label="New credential for Tracker"');
      for (const field of INTEGRATION_FIELDS[kind].credentials) expect(html).toContain(field.label);
      const secrets = html.match(/type="password"/g) ?? [];
      expect(secrets.length, kind).toBe(names.filter((n) => n !== 'email').length);
    }
  });
});
