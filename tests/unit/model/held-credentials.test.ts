import { describe, expect, it } from 'vitest';
import { CONNECTION_KINDS, KINDS } from '../../../src/core/connections/kinds.ts';
import { HELD_CREDENTIALS } from '../../../src/model/held-credentials.ts';
import { INTEGRATION_LABELS } from '../../../src/model/integrations.ts';

describe('the credentials we say we hold', () => {
  it('lists every kind of connection a workspace can hold, once', () => {
    expect(HELD_CREDENTIALS.map((held) => held.kind).sort()).toEqual([...CONNECTION_KINDS].sort());
  });

  it.each(HELD_CREDENTIALS.map((held) => [held.kind, held] as const))(
    '%s says where it is added, what it can do, how it is kept and how it goes',
    (kind, held) => {
      expect(held.tab).toBe(KINDS[kind].tabName);
      for (const part of [held.name, held.what, held.can, held.kept, held.removed]) {
        expect(part.trim().length).toBeGreaterThan(10);
      }
      expect(held.removed).toMatch(/^Removing the \w+ deletes/);
      // Read-only or not, the entry says which.
      expect(held.can).toMatch(/Read-only|Write|Post/);
    },
  );

  it('names every tracker and pager an integration can be, and says those tokens write', () => {
    const integration = HELD_CREDENTIALS.find((held) => held.kind === 'integration');
    for (const label of Object.values(INTEGRATION_LABELS)) {
      expect(integration?.what).toContain(label.split(' ')[0]);
    }
    expect(integration?.can).toMatch(/^Write: open an issue/);
  });
});
