import { describe, expect, it } from 'vitest';
import { UNIQUE_FORMATS, uniqueFormat } from '../../../../src/scanner/proof/unique-names.ts';

/** Real-shaped names of each format, and near-misses that a claimable name may look like. */
/** Real-shaped names of each format. */
const NAMES: Array<[string, string]> = [
  ['acme-web-1a2b3c4d5e6f.herokuapp.com', 'heroku-random-suffix'],
  ['my-app-0123456789ab.herokuapp.com', 'heroku-random-suffix'],
  ['shiny-fox-abc123xyz.herokudns.com', 'heroku-dns-target'],
  ['acme-staging-a1b2c3d4e5f6g7h8.westeurope-01.azurewebsites.net', 'azure-unique-default-host'],
  ['api-0123456789abcdef.eastus2-01.azurewebsites.net', 'azure-unique-default-host'],
  ['contoso-frontend-d8htcmbgc7hhd6b7.z01.azurefd.net', 'azure-front-door-endpoint-hash'],
  ['gentle-sand-0abc12345.azurestaticapps.net', 'azure-static-web-apps'],
  ['gentle-sand-0abc12345.2.azurestaticapps.net', 'azure-static-web-apps'],
  ['logs-123456789012-us-east-1-an.s3.us-east-1.amazonaws.com', 's3-account-regional-bucket'],
  ['data-123456789012-eu-west-2-an.s3.amazonaws.com', 's3-account-regional-bucket'],
  [
    'site-123456789012-ap-southeast-2-an.s3-website-ap-southeast-2.amazonaws.com',
    's3-account-regional-bucket',
  ],
  ['123456789012-us-gov-west-1-an.s3.us-gov-west-1.amazonaws.com', 's3-account-regional-bucket'],
  ['web.eba-a1b2c3d4.us-east-1.elasticbeanstalk.com', 'elastic-beanstalk-eba-token'],
  ['acme-prod.eba-zz99yy88.eu-central-1.elasticbeanstalk.com', 'elastic-beanstalk-eba-token'],
  ['d111111abcdef8.cloudfront.net', 'cloudfront-distribution'],
  ['d1a2b3c4d5e6f7.cloudfront.net', 'cloudfront-distribution'],
  ['nxgkzq7q3fm4.stspg-customer.com', 'statuspage-token'],
  ['api-3x4mpl3abc-uc.a.run.app', 'cloud-run-project-hash'],
];

/** Near-misses, each with the format it resembles: names anyone may be able to create. */
const NEAR_MISSES: Array<[string, string]> = [
  ['acme-web.herokuapp.com', 'heroku-random-suffix'],
  ['acme-web-1a2b3c4d5e6g.herokuapp.com', 'heroku-random-suffix'],
  ['acme-web-1a2b3c4d5e6.herokuapp.com', 'heroku-random-suffix'],
  ['acme-web-1a2b3c4d5e6f.herokuapp.com.evil.test', 'heroku-random-suffix'],
  ['acme-staging-4821.azurewebsites.net', 'azure-unique-default-host'],
  ['acme-staging-a1b2c3d4e5f6g7h.westeurope-01.azurewebsites.net', 'azure-unique-default-host'],
  ['acme-staging-a1b2c3d4e5f6g7h8.westeurope.azurewebsites.net', 'azure-unique-default-host'],
  ['contoso-frontend.azurefd.net', 'azure-front-door-endpoint-hash'],
  ['logs-12345678901-us-east-1-an.s3.amazonaws.com', 's3-account-regional-bucket'],
  ['logs-123456789012-us-east-1.s3.amazonaws.com', 's3-account-regional-bucket'],
  ['logs-123456789012-us-east-1-an.example.test', 's3-account-regional-bucket'],
  ['assets.example.com.s3-website-us-east-1.amazonaws.com', 's3-account-regional-bucket'],
  ['acme-prod.eu-central-1.elasticbeanstalk.com', 'elastic-beanstalk-eba-token'],
  ['web.eba-a1b2c3d.us-east-1.elasticbeanstalk.com', 'elastic-beanstalk-eba-token'],
  ['web.eba-A1B2C3D4.us-east-1.elasticbeanstalk.com.evil.test', 'elastic-beanstalk-eba-token'],
  ['assets.cloudfront.net', 'cloudfront-distribution'],
  ['status.stspg-customer.com', 'statuspage-token'],
  ['api.a.run.app', 'cloud-run-project-hash'],
];

describe('names nobody but their creator can create again', () => {
  it.each(NAMES)('%s is %s', (name, format) => {
    expect(uniqueFormat(name)?.id).toBe(format);
  });

  it.each(NEAR_MISSES)('%s looks like %s but is not', (name) => {
    expect(uniqueFormat(name)).toBeUndefined();
  });

  it('has real-shaped names of every format, and near-misses of the formats with a claimable twin', () => {
    for (const format of UNIQUE_FORMATS)
      expect(
        NAMES.some(([, id]) => id === format.id),
        format.id,
      ).toBe(true);
    const resembled = new Set(NEAR_MISSES.map(([, id]) => id));
    for (const id of [
      'heroku-random-suffix',
      'azure-unique-default-host',
      'azure-front-door-endpoint-hash',
      's3-account-regional-bucket',
      'elastic-beanstalk-eba-token',
      'cloudfront-distribution',
      'statuspage-token',
      'cloud-run-project-hash',
    ])
      expect(resembled.has(id), id).toBe(true);
  });

  it('reads a trailing dot and capitals as DNS does', () => {
    expect(uniqueFormat('WEB.EBA-A1B2C3D4.US-EAST-1.ELASTICBEANSTALK.COM.')?.id).toBe(
      'elastic-beanstalk-eba-token',
    );
  });
});
