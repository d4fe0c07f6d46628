import { describe, expect, it } from 'vitest';
import { proofLabel } from '../../../../src/lib/dashboard/dns-providers.ts';
import { provenParentOf } from '../../../../src/lib/dashboard/proven-parent.ts';
import type { DomainView } from '../../../../src/model/contract.ts';

const domain = (name: string, status: DomainView['status'], proof: DomainView['proof']) =>
  ({ domain: name, status, proof }) as DomainView;

describe("a subdomain's covering proof", () => {
  const list = [
    domain('acme.com', 'verified', 'txt'),
    domain('eu.acme.com', 'verified', 'zone'),
    domain('pending.io', 'pending', null),
    domain('borrowed.dev', 'verified', 'shared'),
  ];

  it('is the closest verified parent that stands on its own proof', () => {
    expect(provenParentOf('app.acme.com', list)).toBe('acme.com');
    expect(provenParentOf('api.eu.acme.com', list)).toBe('eu.acme.com');
  });

  it('is none for the domain itself, a look-alike, a pending parent or one proven elsewhere', () => {
    expect(provenParentOf('acme.com', list)).toBeUndefined();
    expect(provenParentOf('notacme.com', list)).toBeUndefined();
    expect(provenParentOf('app.pending.io', list)).toBeUndefined();
    expect(provenParentOf('app.borrowed.dev', list)).toBeUndefined();
  });

  it("says on the card which proof covers it, and another workspace's where none here does", () => {
    expect(proofLabel('shared', undefined, 'acme.com')).toBe('Covered by the proof of acme.com');
    expect(proofLabel('shared', undefined)).toBe('Your proof of it in another of your workspaces');
    expect(proofLabel('txt', undefined, 'acme.com')).toBe('TXT record');
  });
});
