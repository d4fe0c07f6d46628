/**
 * Target names that carry a part the provider chose for one account (a random suffix, an account
 * id, a token): deleting the resource frees nothing, as nobody else can ever be handed the same
 * name. A record to one is stale and worth removing, never claimable. Data: one row per format.
 */
export interface UniqueFormat {
  id: string;
  service: string;
  /** The whole target name (lower case), anchored. */
  pattern: RegExp;
  /** What makes it unique, in words, for the evidence. */
  why: string;
}

/** AWS region codes as they appear in names (us-east-1, ap-southeast-2, us-gov-west-1, eu-central-2). */
const REGION = '(?:[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\\d)';

export const UNIQUE_FORMATS: readonly UniqueFormat[] = [
  {
    id: 'heroku-random-suffix',
    service: 'Heroku',
    // Since 2023 new apps get `<name>-<12 hex>.herokuapp.com`; the bare `<name>.herokuapp.com` is legacy.
    pattern: /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?-[0-9a-f]{12}\.herokuapp\.com$/,
    why: 'Heroku adds a random 12-hex suffix to new app host names',
  },
  {
    id: 'heroku-dns-target',
    service: 'Heroku',
    // Custom-domain targets Heroku generates per domain (`adjective-noun-xxxx.herokudns.com`).
    pattern: /^[a-z0-9-]+\.herokudns\.com$/,
    why: 'Heroku generates each custom domain its own DNS target',
  },
  {
    id: 'azure-unique-default-host',
    service: 'Azure App Service',
    pattern: /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?-[a-z0-9]{16}\.[a-z0-9]+-01\.azurewebsites\.net$/,
    why: 'Azure App Service gives the app a unique default host name (a 16-character hash and its region)',
  },
  {
    id: 'azure-front-door-endpoint-hash',
    service: 'Azure Front Door',
    // Standard/Premium endpoints: `<endpoint>-<16 of [a-z0-9]>.z01.azurefd.net` (a01, b01, z02 …).
    pattern: /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?-[a-z0-9]{16}\.[a-z]\d{2}\.azurefd\.net$/,
    why: 'Azure Front Door adds a hash to endpoint host names so that they are never reused',
  },
  {
    id: 'azure-static-web-apps',
    service: 'Azure Static Web Apps',
    pattern: /^[a-z]+-[a-z]+-[0-9a-f]{9}(?:\.\d)?\.azurestaticapps\.net$/,
    why: 'Azure Static Web Apps generates the host name with a random part',
  },
  {
    id: 's3-account-regional-bucket',
    service: 'AWS S3',
    // Account-regional buckets `<prefix>-<12-digit account>-<region>-an`, at any S3 endpoint.
    pattern: new RegExp(
      `^(?:[a-z0-9.-]+-)?\\d{12}-${REGION}-an\\.s3(?:[.-][a-z0-9-]+)*(?:\\.dualstack)?(?:\\.[a-z0-9-]+)*\\.amazonaws\\.com$`,
    ),
    why: 'an account-regional S3 bucket name holds its account id: only that account can create it',
  },
  {
    id: 'elastic-beanstalk-eba-token',
    service: 'AWS Elastic Beanstalk',
    pattern: new RegExp(
      `^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.eba-[a-z0-9]{8}\\.${REGION}\\.elasticbeanstalk\\.com$`,
    ),
    why: 'Elastic Beanstalk puts an eba- token of the environment in its host name',
  },
  {
    id: 'cloudfront-distribution',
    service: 'AWS CloudFront',
    pattern: /^d[a-z0-9]{12,13}\.cloudfront\.net$/,
    why: 'CloudFront picks each distribution’s host name at random',
  },
  {
    id: 'statuspage-token',
    service: 'Atlassian Statuspage',
    pattern: /^[a-z0-9]{12}\.stspg-customer\.com$/,
    why: 'Statuspage gives each page a random token host name',
  },
  {
    id: 'cloud-run-project-hash',
    service: 'Google Cloud Run',
    pattern: /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?-[a-z0-9]{10}-[a-z]{2}\.a\.run\.app$/,
    why: 'Cloud Run host names carry a hash of the project',
  },
];

/** The format of a name nobody but its creator's account can create again, if the target is one. */
export function uniqueFormat(target: string): UniqueFormat | undefined {
  const name = target.toLowerCase().replace(/\.$/, '');
  return UNIQUE_FORMATS.find((format) => format.pattern.test(name));
}
