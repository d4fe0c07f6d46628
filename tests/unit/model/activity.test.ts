import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, describeActivity } from '../../../src/model/activity.ts';

const olive = { userId: 'u-olive', email: 'olive@acme.io', displayName: 'Olive' };
const max = { userId: 'u-max', email: 'max@acme.io', displayName: null };
/** A detail of every field some action records. */
const detail = {
  domain: 'acme.com',
  subdomain: 'old.acme.com',
  from: 'free',
  to: 'solo',
  source: 'stripe',
  name: 'ci',
  prefix: 'dw_abc',
  provider: 'cloudflare',
  zone: 'acme.com',
  email: 'dee@acme.io',
  role: 'viewer',
  member: 'u-max',
};

describe('describeActivity', () => {
  it.each(AUDIT_ACTIONS)('says %s in one sentence, naming who did it', (action) => {
    const sentence = describeActivity({ action, actor: olive, member: max, detail });
    expect(sentence.startsWith('Olive ')).toBe(true);
    expect(sentence).not.toMatch(/undefined|null|\[object| {2}/);
    expect(sentence).not.toContain(action);
  });

  it('names people by name, else address, else as former members', () => {
    expect(describeActivity({ action: 'member.role_changed', actor: olive, member: max, detail })).toBe(
      'Olive made max@acme.io viewer',
    );
    expect(describeActivity({ action: 'member.removed', actor: null, member: null, detail: {} })).toBe(
      'A former member removed a former member',
    );
  });

  it('says that someone who removed themself left', () => {
    expect(describeActivity({ action: 'member.removed', actor: max, member: max, detail })).toBe(
      'max@acme.io left the workspace',
    );
  });

  it('tells a plan bought from a plan the operator gave', () => {
    expect(describeActivity({ action: 'plan.changed', actor: olive, member: null, detail })).toBe(
      'Olive moved the workspace to the Solo plan (was Free)',
    );
    expect(
      describeActivity({
        action: 'plan.changed',
        actor: olive,
        member: null,
        detail: { ...detail, source: 'operator' },
      }),
    ).toBe('Olive was given the Solo plan (was Free)');
  });
});

describe('an accepted risk in the activity list', () => {
  it('says until when it runs, or nothing for one made before expiries were kept', () => {
    const say = (until: unknown) =>
      describeActivity({
        action: 'finding.accepted',
        actor: olive,
        member: null,
        detail: { subdomain: 'old.acme.com', note: 'parked', until },
      });
    expect(say('2026-12-22T23:59:59.999Z')).toBe(
      'Olive accepted the risk of old.acme.com until 2026-12-22: “parked”',
    );
    expect(say('record-changes')).toBe(
      'Olive accepted the risk of old.acme.com until the record changes: “parked”',
    );
    expect(say(undefined)).toBe('Olive accepted the risk of old.acme.com: “parked”');
  });
});
