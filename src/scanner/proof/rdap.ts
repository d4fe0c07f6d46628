import type { Proof } from '../../model/proof.ts';

/**
 * RDAP's answer, already asked by the registration rules, kept as the proof: a 404 for the
 * registrable domain (with no delegation in DNS) says anyone can register it; past its expiry and
 * being deleted says anyone can any day now.
 */
export function rdapProof(registrable: string, said: string, lapse = false, at = new Date()): Proof {
  return {
    check: lapse ? 'rdap-lapse' : 'rdap',
    answer: { name: registrable, free: true, said },
    checkedAt: at.toISOString(),
  };
}
