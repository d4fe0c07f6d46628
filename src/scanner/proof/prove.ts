import { Throttled } from '../../connectors/proof/api.ts';
import { ONLY_CREATOR_WORDS, PROVIDER_SAYS_TAKEN, type Proof } from '../../model/proof.ts';
import type { ScanContext } from '../context.ts';
import type { Detected, Finding } from '../types.ts';
import { Limiter, mapLimit } from '../util/limit.ts';
import { type ProofCache, sharedProofCache } from './cache.ts';
import type { CheckRun, Outcome, ProofCheck, Subject } from './check.ts';
import { PROOF_CHECK_TABLE } from './checks.ts';
import type { ProofSettings } from './settings.ts';
import { uniqueFormat } from './unique-names.ts';

export type Proven = Omit<Finding, 'sources'>;

export interface ProveOptions {
  settings: ProofSettings;
  /** Validation ran: without it nothing is called claimable, proof or not. */
  validated: boolean;
  checks?: readonly ProofCheck[];
  cache?: ProofCache;
  signal: AbortSignal;
}

/** Providers throttling this process, until when (ms): their checks wait for no scan meanwhile. */
const throttledUntil = new Map<string, number>();

/** A provider as its throttling goes: its API where it has one, else the servers the probes reach. */
function providerKey(check: ProofCheck, { settings, ctx }: CheckRun): string {
  const where = {
    aws: settings.awsElasticBeanstalkEndpoint ?? 'aws',
    azure: settings.azureManagementUrl,
    shopify: settings.shopifyUrl,
    s3: String(ctx.settings.ports.http),
    fastly: String(ctx.settings.ports.http),
  }[check.provider];
  return `${check.provider} ${where}`;
}

/** A record to a name only its creator's account can create again: stale, never claimable. */
function onlyCreator(finding: Detected, why: string): Proven {
  return {
    ...finding,
    status: 'review',
    risk: 'low',
    evidence: [...finding.evidence, `${finding.target}: ${why}`, ONLY_CREATOR_WORDS],
    explanation: `This record is ${ONLY_CREATOR_WORDS}: ${why}. Nobody can take it over, but it points at nothing and should go. ${finding.explanation}`,
    proof: null,
  };
}

const atMostLikely = (status: Detected['status']) => (status === 'claimable' ? 'likely' : status);

/** What the check's outcome makes of the finding (`upTo`: how far "free" raises a review). */
function settle(
  finding: Detected,
  check: ProofCheck,
  outcome: Outcome,
  at: number,
  validated: boolean,
  upTo: Detected['upTo'],
): Proven {
  if (!('answer' in outcome)) {
    return {
      ...finding,
      status: atMostLikely(finding.status),
      evidence: [...finding.evidence, `not proven: ${outcome.unknown}`],
      proof: null,
    };
  }
  const proof: Proof = { check: check.id, answer: outcome.answer, checkedAt: new Date(at).toISOString() };
  if (!outcome.answer.free) {
    return {
      ...finding,
      status: 'review',
      risk: 'low',
      evidence: [...finding.evidence, `${PROVIDER_SAYS_TAKEN} (${outcome.answer.said})`],
      proof,
    };
  }
  const decided = check.decides && validated && finding.status !== 'claimable';
  const raised = !decided && upTo !== undefined && finding.status === 'review';
  return {
    ...finding,
    ...(decided ? { status: 'claimable' as const, risk: 'high' as const } : {}),
    ...(raised ? { status: upTo } : {}),
    evidence: [...finding.evidence, `proven: ${outcome.answer.said}`],
    proof,
  };
}

/**
 * The proof phase, after resolution and validation: claimable only when proven. A name only its
 * creator can create again is review; a finding of a family with a check asks the provider (each
 * name once per 10 minutes, bounded, Retry-After obeyed); what no check proves is at most likely.
 * A provider that is down, slow or throttling leaves `proof: null`, never a failed scan.
 */
export async function prove(
  findings: readonly Detected[],
  ctx: ScanContext,
  options: ProveOptions,
): Promise<Proven[]> {
  const checks = options.checks ?? PROOF_CHECK_TABLE;
  const cache = options.cache ?? sharedProofCache;
  const run: CheckRun = { settings: options.settings, ctx, signal: options.signal };
  const all = new Limiter(options.settings.concurrency, options.signal);
  const perProvider = new Map<string, Limiter>();
  const inFlight = new Map<string, Promise<{ outcome: Outcome; at: number }>>();

  const ask = (check: ProofCheck, subject: Subject) => {
    const key = `${check.id} ${subject.name} ${check.where(subject, run)}`;
    const held = cache.get(key);
    if (held) return Promise.resolve(held);
    let pending = inFlight.get(key);
    if (pending) return pending;
    let limiter = perProvider.get(check.provider);
    if (!limiter) {
      limiter = new Limiter(options.settings.perProvider, options.signal);
      perProvider.set(check.provider, limiter);
    }
    const lane = limiter;
    pending = all.run(() =>
      lane.run(async () => {
        const at = Date.now();
        const provider = providerKey(check, run);
        const until = throttledUntil.get(provider) ?? 0;
        if (until > at)
          return {
            at,
            outcome: { unknown: `${check.provider} asked to wait ${Math.ceil((until - at) / 1000)} s more` },
          };
        let outcome: Outcome;
        try {
          outcome = await check.ask(subject, run);
        } catch (error) {
          options.signal.throwIfAborted();
          if (error instanceof Throttled) {
            throttledUntil.set(provider, error.untilMs);
            outcome = { unknown: error.message };
          } else outcome = { unknown: `the check failed: ${(error as Error)?.message ?? String(error)}` };
        }
        options.signal.throwIfAborted();
        cache.set(key, outcome, at);
        return { at, outcome };
      }),
    );
    inFlight.set(key, pending);
    return pending;
  };

  return mapLimit([...findings], options.settings.concurrency * 2, async (detected): Promise<Proven> => {
    const { upTo, ...finding } = detected;
    const unique = uniqueFormat(finding.target);
    if (unique) return onlyCreator(finding, unique.why);
    if (finding.proof) return { ...finding, proof: finding.proof };
    // Only a dangling finding is proven: a review of a service that verifies names, say, stays one.
    for (const check of checks) {
      const subject = check.subject(finding);
      if (!subject) continue;
      if (finding.status === 'review' && !check.decides && upTo === undefined) break;
      if (check.needs && !options.settings[check.needs]) {
        return {
          ...finding,
          status: atMostLikely(finding.status),
          evidence: [
            ...finding.evidence,
            `not proven: the ${check.id} check is off (no ${check.needs === 'aws' ? 'AWS' : 'Azure'} probe credentials)`,
          ],
          proof: null,
        };
      }
      const { outcome, at } = await ask(check, subject);
      return settle(finding, check, outcome, at, options.validated, upTo);
    }
    return {
      ...finding,
      status: atMostLikely(finding.status),
      ...(finding.status === 'claimable'
        ? { evidence: [...finding.evidence, 'not proven: no provider check for this service'] }
        : {}),
      proof: null,
    };
  });
}
