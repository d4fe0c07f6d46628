import type { ProofAnswer, ProofCheckId } from '../../model/proof.ts';
import type { ScanContext } from '../context.ts';
import type { Detected } from '../types.ts';
import type { ProofSettings } from './settings.ts';

/** What a check learnt: the provider's answer, or why there is none (down, throttled, odd answer). */
export type Outcome = { answer: ProofAnswer } | { unknown: string };

/** The name a check asks about, and what else it needs to ask (a region, a location, a host). */
export interface Subject {
  name: string;
  [detail: string]: string;
}

export interface CheckRun {
  settings: ProofSettings;
  /** The scan's context: anonymous probes go, like every probe, to the address its resolvers give. */
  ctx: ScanContext;
  signal: AbortSignal;
}

export interface ProofCheck {
  id: ProofCheckId;
  /** Checks of one provider share its bounds and its Retry-After. */
  provider: 'aws' | 'azure' | 's3' | 'fastly' | 'shopify';
  /** The operator's credentials it needs; without them the check is off. */
  needs?: 'aws' | 'azure';
  /**
   * The answer tests the very condition that keeps the service from being claimable as a rule
   * (Fastly: whether the parent domain is on a service): "free" then proves it claimable whatever
   * the catalogue's status. Otherwise a proof confirms the status its detection rule gave (the
   * catalogue's, or claimable for a resource a connected account let go), never raises it.
   */
  decides?: boolean;
  /** The name to ask about when the finding is of this family, else undefined. */
  subject(finding: Detected): Subject | undefined;
  /** Part of the cache key besides the name: where the question goes. */
  where(subject: Subject, run: CheckRun): string;
  ask(subject: Subject, run: CheckRun): Promise<Outcome>;
}

export const free = (name: string, said: string): Outcome => ({ answer: { name, free: true, said } });
export const taken = (name: string, said: string): Outcome => ({ answer: { name, free: false, said } });
export const unknown = (why: string): Outcome => ({ unknown: why });
