import type { Outcome } from './check.ts';

/** How long a provider's answer about a name is taken again without asking. */
export const PROOF_CACHE_MS = 10 * 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Answers by check and name, for 10 minutes. Per process, not in the database: an answer is the
 * same for every process, so two processes disagree about nothing; a second one merely asks once
 * more. Only answers are kept, never "could not be checked".
 */
export class ProofCache {
  private readonly answers = new Map<string, { at: number; outcome: Outcome }>();

  /** The answer and when it was given. */
  get(key: string, now = Date.now()): { at: number; outcome: Outcome } | undefined {
    const held = this.answers.get(key);
    if (!held) return undefined;
    if (now - held.at < PROOF_CACHE_MS) return held;
    this.answers.delete(key);
    return undefined;
  }

  set(key: string, outcome: Outcome, now = Date.now()) {
    if (!('answer' in outcome)) return;
    // A Map keeps insertion order: the oldest answer goes first when it is full.
    if (this.answers.size >= MAX_ENTRIES) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(key, { at: now, outcome });
  }
}

export const sharedProofCache = new ProofCache();
