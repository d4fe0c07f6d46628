import type { FindingView, NameSource } from '../../model/contract.ts';

/** What each finding status means, in one sentence a user can act on. */
export const FINDING_STATUS_TEXT: Record<FindingView['status'], { label: string; sentence: string }> = {
  claimable: {
    label: 'Claimable',
    sentence:
      'Proven: the provider itself says what this name points at is free to create, and a second check confirmed it is unclaimed, so anyone could take this name over today.',
  },
  likely: {
    label: 'Likely',
    sentence:
      'The evidence matches a takeover, but no provider answer proves the name is free (the service sometimes blocks it, or could not be asked): treat it as real until you have fixed or ruled it out.',
  },
  review: {
    label: 'Review',
    sentence:
      'The record is stale or points at something that no longer answers, but no known way to take it over exists as a rule: the service is retired, verifies who owns the domain, or allows a takeover only in special cases its provider has not confirmed. Clean it up when you can.',
  },
};

interface ChainStep {
  label: 'Subdomain' | 'Record' | 'Target' | 'Service' | 'Answer';
  value: string;
}

/** An evidence line that says what answered at the end of the chain (HTTP page, NXDOMAIN, RDAP …). */
const ANSWER = /answered|NXDOMAIN|not registered|REFUSED|SERVFAIL|nothing answers|no answer|silent/i;

/** The part of an evidence line worth showing as the answer: without the resolver note. */
function answerOf(line: string): string {
  return line.replace(/\s*\((?:from |via )?resolver [^)]*\)\s*$/i, '').trim();
}

/**
 * The evidence chain of a finding, for the small diagram of the details view: subdomain → record
 * → target → service → what answered (from the engine's evidence lines).
 */
export function evidenceChain(finding: FindingView): ChainStep[] {
  const answer =
    finding.evidence.find((line) => ANSWER.test(line) && !/^confirmed/i.test(line)) ??
    finding.evidence.at(-1);
  return [
    { label: 'Subdomain', value: finding.subdomain },
    { label: 'Record', value: finding.recordType },
    { label: 'Target', value: finding.target },
    { label: 'Service', value: finding.service },
    { label: 'Answer', value: answer ? answerOf(answer) : 'No answer recorded' },
  ];
}

const RISK_ORDER: Record<FindingView['risk'], number> = { high: 0, medium: 1, low: 2 };

/** Findings by risk, the most urgent first. */
export function byRisk(findings: readonly FindingView[]): FindingView[] {
  return [...findings].sort(
    (a, b) => RISK_ORDER[a.risk] - RISK_ORDER[b.risk] || a.subdomain.localeCompare(b.subdomain),
  );
}

/** How each source of a finding's name reads on its tag, and what it means for its title. */
export const NAME_SOURCE_TEXT: Record<NameSource, { tag: string; title: string }> = {
  given: { tag: 'given', title: 'A name given to the scan' },
  zone: { tag: 'zone', title: "A record of the domain's zone (connected provider or zone file)" },
  ct: { tag: 'CT', title: 'Found in certificate-transparency logs' },
  wordlist: { tag: 'wordlist', title: 'Found by trying common subdomain names' },
  dns: { tag: 'DNS', title: 'Named in a DNS answer (NS, MX, SPF)' },
};

/** A finding's identity across scans, as the server keys its state: name, record, target, service. */
export function findingIdentity(
  f: Pick<FindingView, 'subdomain' | 'recordType' | 'target' | 'service'>,
): string {
  return `${f.subdomain}\n${f.recordType}\n${f.target}\n${f.service}`;
}
