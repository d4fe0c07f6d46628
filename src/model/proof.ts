/**
 * What proves a finding claimable: a provider's own answer about the name, or a deterministic
 * anonymous probe, kept with the finding (which check, what it answered, when). Shared by the
 * engine, the server and the dashboard, so the words a proof is shown in are written once.
 */

/** The checks the engine knows, each asking one provider about one kind of name. */
export const PROOF_CHECKS = {
  rdap: { provider: 'RDAP', thing: 'domain', free: 'is not registered', taken: 'is registered' },
  'rdap-lapse': {
    provider: 'RDAP',
    thing: 'domain',
    free: 'has expired and is being deleted',
    taken: 'is registered',
  },
  's3-bucket': {
    provider: 'AWS S3',
    thing: 'bucket',
    free: 'does not exist (NoSuchBucket)',
    taken: 'exists in another account',
  },
  'elastic-beanstalk': {
    provider: 'AWS Elastic Beanstalk',
    thing: 'CNAME prefix',
    free: 'is free to register',
    taken: 'is taken',
  },
  'azure-traffic-manager': {
    provider: 'Azure',
    thing: 'Traffic Manager name',
    free: 'is free to register',
    taken: 'is taken',
  },
  'azure-app-service': { provider: 'Azure', thing: 'name', free: 'is free to register', taken: 'is taken' },
  'azure-cloudapp': { provider: 'Azure', thing: 'DNS label', free: 'is free to register', taken: 'is taken' },
  'azure-storage': {
    provider: 'Azure',
    thing: 'storage account name',
    free: 'is free to register',
    taken: 'is taken',
  },
  'azure-cdn': {
    provider: 'Azure',
    thing: 'CDN endpoint name',
    free: 'is free to register',
    taken: 'is taken',
  },
  'azure-front-door': {
    provider: 'Azure',
    thing: 'Front Door name',
    free: 'is free to register',
    taken: 'is taken',
  },
  fastly: {
    provider: 'Fastly',
    thing: 'domain',
    free: 'is on no Fastly service, nor is its parent domain',
    taken: 'is held by another Fastly service (the parent domain is)',
  },
  shopify: { provider: 'Shopify', thing: 'shop name', free: 'is free to register', taken: 'is taken' },
} as const satisfies Record<string, { provider: string; thing: string; free: string; taken: string }>;

export type ProofCheckId = keyof typeof PROOF_CHECKS;
export const PROOF_CHECK_IDS = Object.keys(PROOF_CHECKS) as ProofCheckId[];

/** What the provider answered about one name: free or taken, and its own words. */
export interface ProofAnswer {
  /** The name asked about: a bucket, an app name, a domain. */
  name: string;
  free: boolean;
  /** The provider's own words or fields, as received (`nameAvailable: true`, `NoSuchBucket`). */
  said: string;
}

export interface Proof {
  check: ProofCheckId;
  answer: ProofAnswer;
  /** ISO 8601. */
  checkedAt: string;
}

/** The words of a finding the provider says somebody holds now. */
export const PROVIDER_SAYS_TAKEN = 'the provider says this name is taken';
/** The words of a dangling record to a name only its creator's account can ever create again. */
export const ONLY_CREATOR_WORDS = 'dangling, but only the account that created it can create this name again';

/** The proofs that need the operator's credentials, by the credentials they need. */
export const PROOF_CREDENTIALS = {
  aws: ['elastic-beanstalk'],
  azure: [
    'azure-traffic-manager',
    'azure-app-service',
    'azure-cloudapp',
    'azure-storage',
    'azure-cdn',
    'azure-front-door',
  ],
} as const satisfies Record<string, readonly ProofCheckId[]>;

const UNITS: Array<[number, string]> = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
];

/** "just now", "1 minute ago", "3 hours ago", "2 days ago". */
export function agoText(iso: string, now: number): string {
  const elapsed = now - Date.parse(iso);
  for (const [ms, unit] of UNITS) {
    const n = Math.floor(elapsed / ms);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** What the provider said, in words: "Azure says the name acme-staging-4821 is free to register". */
export function proofSentence(proof: Proof): string {
  const check = PROOF_CHECKS[proof.check];
  const verdict = proof.answer.free ? check.free : check.taken;
  return `${check.provider} says the ${check.thing} ${proof.answer.name} ${verdict}`;
}

/** One plain line: "Azure says the name acme-staging-4821 is free to register, checked 2 minutes ago". */
export function proofLine(proof: Proof, now: number): string {
  return `${proofSentence(proof)}, checked ${agoText(proof.checkedAt, now)}`;
}

/** The line of a finding that has no proof, by its status. */
export function noProofLine(status: 'claimable' | 'likely' | 'review'): string {
  return status === 'review'
    ? 'Not claimable as far as anyone can show'
    : 'Not proven: no provider answered for this name';
}

/**
 * The dashboard's notice of the checks the server runs without, by provider, in the user's words:
 * what it means for their findings and what they can check themselves (the server's settings are
 * its operator's business, not theirs); null when every check runs.
 */
export function proofsOffText(off: readonly ProofCheckId[]): string | null {
  const providers = [
    ...new Set(off.filter((id) => id in PROOF_CHECKS).map((id) => PROOF_CHECKS[id].provider)),
  ];
  if (providers.length === 0) return null;
  const list = providers.join(' or ');
  return `Findings on ${list} stop at "likely" here: this server cannot ask ${providers.length === 1 ? 'that provider' : 'those providers'} whether a name is free to claim. Treat them as urgent all the same: check at ${list} that what the record points to is still yours, or remove the record.`;
}

/** A proof older than this is asked again before an alert calls its finding claimable. */
export const PROOF_MAX_AGE_MS = 24 * 3_600_000;
