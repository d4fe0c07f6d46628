import type { CloudProviderId } from './contract.ts';
import type { CredentialField } from './credential-field.ts';

/** The longest grace period a cloud account may give a missing address, in hours. */
export const MAX_GRACE_HOURS = 720;

/**
 * The grace period as typed in Settings → Cloud: a whole number of hours within the range, or why
 * not. Blank is refused, not read as 0, which would make every missing address a finding at once.
 */
export function parseGraceHours(input: string): { hours: number } | { error: string } {
  const range = `a whole number of hours from 0 to ${MAX_GRACE_HOURS}`;
  const text = input.trim();
  if (text === '') return { error: `Give the grace period: ${range}.` };
  const hours = Number(text);
  if (!Number.isInteger(hours) || hours < 0 || hours > MAX_GRACE_HOURS) {
    return { error: `The grace period is ${range}.` };
  }
  return { hours };
}

/** The policy an AWS key needs, and all it needs: the settings page and the README show it. */
export const AWS_READ_POLICY = {
  Version: '2012-10-17',
  Statement: [
    {
      Sid: 'DangleWatchCloudInventory',
      Effect: 'Allow',
      Action: [
        'ec2:DescribeRegions',
        'ec2:DescribeAddresses',
        'ec2:DescribeInstances',
        'ec2:DescribeNetworkInterfaces',
        'globalaccelerator:ListAccelerators',
        'lightsail:GetInstances',
        'lightsail:GetStaticIps',
        's3:ListAllMyBuckets',
        'cloudfront:ListDistributions',
        'elasticbeanstalk:DescribeEnvironments',
      ],
      Resource: '*',
    },
  ],
};

/**
 * Optional: lets the key (and the role it assumes) ask IAM's policy simulator about itself, so the
 * settings page can name any right it holds beyond reading. Simulating is a read; the resource is
 * the key's own user and role, never every principal of the account.
 */
export const AWS_RIGHTS_CHECK_POLICY = {
  Version: '2012-10-17',
  Statement: [
    {
      Sid: 'DangleWatchChecksItsOwnRights',
      Effect: 'Allow',
      Action: ['iam:SimulatePrincipalPolicy'],
      Resource: ['arn:aws:iam::ACCOUNT_ID:user/USER_NAME', 'arn:aws:iam::ACCOUNT_ID:role/ROLE_NAME'],
    },
  ],
};

/** A cloud as the connect form shows it: its fields and the least rights to grant. */
export interface CloudInfo {
  id: CloudProviderId;
  label: string;
  fields: readonly CredentialField[];
  rights: string;
  policy?: string;
  /** What the settings page says when the cloud did not say which rights the credential has beyond reading. */
  rightsUnchecked: string;
  /** A policy to add so that it can. */
  rightsCheckPolicy?: string;
}

export const CLOUDS: readonly CloudInfo[] = [
  {
    id: 'aws',
    label: 'AWS',
    fields: [
      { key: 'accessKeyId', label: 'Access key ID', input: 'text' },
      { key: 'secretAccessKey', label: 'Secret access key', input: 'password' },
      { key: 'roleArn', label: 'Role ARN to assume (optional)', input: 'text', optional: true },
    ],
    rights: 'An IAM user (or a role it assumes) with this policy and nothing more:',
    policy: JSON.stringify(AWS_READ_POLICY, null, 2),
    rightsUnchecked:
      'AWS tells a key its own rights only through iam:SimulatePrincipalPolicy, which this key may not call. ' +
      'Add this policy, with your account id, the key’s user and the role it assumes, and the next read names ' +
      'any right it holds beyond reading:',
    rightsCheckPolicy: JSON.stringify(AWS_RIGHTS_CHECK_POLICY, null, 2),
  },
  {
    id: 'azure',
    label: 'Microsoft Azure',
    fields: [
      { key: 'tenantId', label: 'Tenant ID', input: 'text' },
      { key: 'clientId', label: 'Client (application) ID', input: 'text' },
      { key: 'clientSecret', label: 'Client secret', input: 'password' },
    ],
    rights: 'A service principal with the Reader role on each subscription to watch.',
    rightsUnchecked:
      'Azure did not answer which rights this service principal holds in its subscriptions; the next read asks again.',
  },
  {
    id: 'gcloud',
    label: 'Google Cloud',
    fields: [{ key: 'serviceAccountKey', label: 'Service-account key (JSON)', input: 'textarea' }],
    rights: 'A service account with roles/compute.viewer and a role holding only storage.buckets.list.',
    rightsUnchecked:
      'Google Cloud did not answer which permissions this service account holds in its projects; the next read asks again.',
  },
  {
    id: 'digitalocean',
    label: 'DigitalOcean',
    fields: [{ key: 'token', label: 'API token', input: 'password' }],
    rights: 'A personal access token with the read scope only.',
    rightsUnchecked:
      'DigitalOcean does not let a token read its own scopes. In the control panel, under API → Tokens, check ' +
      'that this token has the read scope only, or just these: account:read, droplet:read, reserved_ip:read, ' +
      'load_balancer:read, cdn:read and app:read. DangleWatch never writes.',
  },
];

/** The placeholder the rights-check policy carries where the account's id goes. */
const ACCOUNT_ID_PLACEHOLDER = /ACCOUNT_ID/g;

/**
 * The rights-check policy to paste for an account already read: its id in place of the placeholder
 * where the read learned one AWS account (a 12-digit id), the placeholder left where it did not.
 */
export function rightsCheckPolicyFor(cloud: CloudInfo, accounts: readonly string[]): string | undefined {
  const [only, ...others] = accounts;
  if (!cloud.rightsCheckPolicy || cloud.id !== 'aws' || !only || others.length || !/^\d{12}$/.test(only))
    return cloud.rightsCheckPolicy;
  return cloud.rightsCheckPolicy.replace(ACCOUNT_ID_PLACEHOLDER, only);
}

export const cloudInfo = (id: CloudProviderId): CloudInfo =>
  CLOUDS.find((c) => c.id === id) ?? (CLOUDS[0] as CloudInfo);
