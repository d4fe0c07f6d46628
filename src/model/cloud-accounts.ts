import type { CloudProviderId } from './contract.ts';

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

/** One credential field of a cloud's connect form: its key in the request's `credentials`. */
export interface CloudCredentialField {
  key: string;
  label: string;
  input: 'password' | 'text' | 'textarea';
  optional?: boolean;
}

/** A cloud as the connect form shows it: its fields and the least rights to grant. */
export interface CloudInfo {
  id: CloudProviderId;
  label: string;
  fields: readonly CloudCredentialField[];
  rights: string;
  policy?: string;
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
  },
  {
    id: 'gcloud',
    label: 'Google Cloud',
    fields: [{ key: 'serviceAccountKey', label: 'Service-account key (JSON)', input: 'textarea' }],
    rights: 'A service account with roles/compute.viewer and a role holding only storage.buckets.list.',
  },
  {
    id: 'digitalocean',
    label: 'DigitalOcean',
    fields: [{ key: 'token', label: 'API token', input: 'password' }],
    rights: 'A personal access token with the read scope only.',
  },
];

export const cloudInfo = (id: CloudProviderId): CloudInfo =>
  CLOUDS.find((c) => c.id === id) ?? (CLOUDS[0] as CloudInfo);
