import { CloudFrontClient, ListDistributionsCommand } from '@aws-sdk/client-cloudfront';
import {
  DescribeAddressesCommand,
  DescribeInstancesCommand,
  DescribeNetworkInterfacesCommand,
  DescribeRegionsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { DescribeEnvironmentsCommand, ElasticBeanstalkClient } from '@aws-sdk/client-elastic-beanstalk';
import { GlobalAcceleratorClient, ListAcceleratorsCommand } from '@aws-sdk/client-global-accelerator';
import { IAMClient, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
import { GetInstancesCommand, GetStaticIpsCommand, LightsailClient } from '@aws-sdk/client-lightsail';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import type { z } from 'zod';
import {
  CLOUD_CALL_DEFAULTS,
  type CloudCallOptions,
  CloudError,
  type CloudFailure,
  type CloudProvider,
  type CloudSnapshot,
  cloudCredentialSchemas,
  endpointFrom,
  type HeldAddress,
  type HeldResource,
} from '../cloud/provider.ts';

type Credentials = z.infer<typeof cloudCredentialSchemas.aws>;
type Keys = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

/** The endpoint variable of each service: tests point them all at a loopback fake. */
export const AWS_ENDPOINT_VARIABLES = {
  ec2: 'AWS_EC2_ENDPOINT',
  s3: 'AWS_S3_ENDPOINT',
  cloudfront: 'AWS_CLOUDFRONT_ENDPOINT',
  elasticbeanstalk: 'AWS_ELASTICBEANSTALK_ENDPOINT',
  globalaccelerator: 'AWS_GLOBALACCELERATOR_ENDPOINT',
  lightsail: 'AWS_LIGHTSAIL_ENDPOINT',
  sts: 'AWS_STS_ENDPOINT',
  iam: 'AWS_IAM_ENDPOINT',
} as const;

/**
 * The writes a key for the inventory should not hold, asked of IAM's policy simulator: each
 * service the policy reads, and the rights that would let a leaked key spread (IAM, Route 53).
 */
const WRITE_ACTIONS = [
  'ec2:RunInstances',
  'ec2:TerminateInstances',
  'ec2:AllocateAddress',
  'ec2:ReleaseAddress',
  'ec2:AssociateAddress',
  'ec2:ModifyInstanceAttribute',
  'ec2:AuthorizeSecurityGroupIngress',
  'globalaccelerator:CreateAccelerator',
  'globalaccelerator:DeleteAccelerator',
  'lightsail:CreateInstances',
  'lightsail:DeleteInstance',
  'lightsail:ReleaseStaticIp',
  's3:CreateBucket',
  's3:DeleteBucket',
  's3:PutObject',
  's3:PutBucketPolicy',
  'cloudfront:CreateDistribution',
  'cloudfront:UpdateDistribution',
  'cloudfront:DeleteDistribution',
  'elasticbeanstalk:CreateEnvironment',
  'elasticbeanstalk:TerminateEnvironment',
  'route53:ChangeResourceRecordSets',
  'iam:CreateUser',
  'iam:CreateAccessKey',
  'iam:AttachUserPolicy',
  'iam:PutUserPolicy',
  'iam:PassRole',
] as const;

/** Lightsail runs in these regions only; GetRegions would need a right of its own. */
const LIGHTSAIL_REGIONS = new Set([
  'us-east-1',
  'us-east-2',
  'us-west-2',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-central-1',
  'eu-north-1',
  'ca-central-1',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ap-northeast-1',
  'ap-northeast-2',
]);
/** Elastic Beanstalk is regional; its environments are read in every region the account has enabled. */
const REFUSED = new Set([
  'AuthFailure',
  'UnauthorizedOperation',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidAccessKeyId',
  'ExpiredToken',
  'IncompleteSignature',
  'MissingAuthenticationToken',
  'OptInRequired',
]);

/** The SDK's errors as CloudErrors, in AWS's own words: the code, the message and the call. */
function translate(error: unknown, call: string): CloudError {
  if (error instanceof CloudError) return error;
  const e = error as Error & { $metadata?: { httpStatusCode?: number }; Code?: string };
  const status = e.$metadata?.httpStatusCode;
  const code = e.Code ?? e.name;
  let failure: CloudFailure;
  if (REFUSED.has(code) || status === 401 || status === 403) failure = 'credentials';
  else if (status === undefined || status === 429 || status >= 500) failure = 'unavailable';
  else failure = 'malformed';
  return new CloudError('aws', failure, `${call}: ${code}: ${e.message}`);
}

function settings(
  keys: Keys,
  options: CloudCallOptions | undefined,
  service: keyof typeof AWS_ENDPOINT_VARIABLES,
) {
  const endpoint = endpointFrom(options, AWS_ENDPOINT_VARIABLES[service]);
  const timeoutMs = options?.timeoutMs ?? CLOUD_CALL_DEFAULTS.timeoutMs;
  return {
    ...(endpoint ? { endpoint } : {}),
    credentials: keys,
    // The SDK's standard retries back off on throttling (RequestLimitExceeded, Throttling) and 5xx.
    maxAttempts: (options?.maxRetries ?? CLOUD_CALL_DEFAULTS.maxRetries) + 1,
    requestHandler: { requestTimeout: timeoutMs, connectionTimeout: timeoutMs, throwOnRequestTimeout: true },
  };
}

interface Clients {
  keys: Keys;
  options: CloudCallOptions | undefined;
  open: Array<{ destroy(): void }>;
}

function opened<T extends { destroy(): void }>(clients: Clients, client: T): T {
  clients.open.push(client);
  return client;
}

async function send<T>(call: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw translate(error, call);
  }
}

/** The key, or the role it assumes (temporary keys for the rest of the read). */
async function keysFor(credentials: Credentials, options: CloudCallOptions | undefined): Promise<Keys> {
  const keys = { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey };
  if (!credentials.roleArn) return keys;
  const sts = new STSClient({ region: 'us-east-1', ...settings(keys, options, 'sts') });
  try {
    const out = await send('AssumeRole', () =>
      sts.send(
        new AssumeRoleCommand({ RoleArn: credentials.roleArn, RoleSessionName: 'danglewatch-inventory' }),
        { abortSignal: options?.signal },
      ),
    );
    const c = out.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey)
      throw new CloudError('aws', 'malformed', 'AWS AssumeRole answered without credentials');
    return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
  } finally {
    sts.destroy();
  }
}

async function regions(clients: Clients): Promise<string[]> {
  const ec2 = opened(
    clients,
    new EC2Client({ region: 'us-east-1', ...settings(clients.keys, clients.options, 'ec2') }),
  );
  const out = await send('DescribeRegions', () =>
    ec2.send(new DescribeRegionsCommand({}), { abortSignal: clients.options?.signal }),
  );
  return (out.Regions ?? []).flatMap((r) => (r.RegionName ? [r.RegionName] : [])).sort();
}

/** Elastic IPs, instances' public addresses and every network interface's (load balancers, NAT, …). */
async function ec2Region(clients: Clients, region: string, into: CloudSnapshot, owners: Set<string>) {
  const ec2 = opened(clients, new EC2Client({ region, ...settings(clients.keys, clients.options, 'ec2') }));
  const signal = clients.options?.signal;
  const add = (a: HeldAddress) => into.addresses.push(a);
  const addresses = await send('DescribeAddresses', () =>
    ec2.send(new DescribeAddressesCommand({}), { abortSignal: signal }),
  );
  for (const a of addresses.Addresses ?? []) {
    if (a.PublicIp)
      add({ address: a.PublicIp, type: 'elastic-ip', name: a.AllocationId ?? a.PublicIp, region });
    if (a.NetworkInterfaceOwnerId) owners.add(a.NetworkInterfaceOwnerId);
  }
  let token: string | undefined;
  do {
    const page = await send('DescribeInstances', () =>
      ec2.send(new DescribeInstancesCommand({ MaxResults: 1000, NextToken: token }), { abortSignal: signal }),
    );
    for (const reservation of page.Reservations ?? []) {
      if (reservation.OwnerId) owners.add(reservation.OwnerId);
      for (const instance of reservation.Instances ?? []) {
        const name = instance.InstanceId ?? '';
        if (instance.PublicIpAddress)
          add({ address: instance.PublicIpAddress, type: 'instance', name, region });
        if (instance.Ipv6Address) add({ address: instance.Ipv6Address, type: 'instance', name, region });
        for (const eni of instance.NetworkInterfaces ?? [])
          for (const v6 of eni.Ipv6Addresses ?? [])
            if (v6.Ipv6Address) add({ address: v6.Ipv6Address, type: 'instance', name, region });
      }
    }
    token = page.NextToken || undefined;
  } while (token);
  do {
    const page = await send('DescribeNetworkInterfaces', () =>
      ec2.send(new DescribeNetworkInterfacesCommand({ MaxResults: 1000, NextToken: token }), {
        abortSignal: signal,
      }),
    );
    for (const eni of page.NetworkInterfaces ?? []) {
      if (eni.OwnerId) owners.add(eni.OwnerId);
      const name = eni.NetworkInterfaceId ?? '';
      if (eni.Association?.PublicIp)
        add({ address: eni.Association.PublicIp, type: 'network-interface', name, region });
      for (const v6 of eni.Ipv6Addresses ?? [])
        if (v6.Ipv6Address) add({ address: v6.Ipv6Address, type: 'network-interface', name, region });
    }
    token = page.NextToken || undefined;
  } while (token);
}

async function lightsailRegion(clients: Clients, region: string, into: CloudSnapshot) {
  const api = opened(
    clients,
    new LightsailClient({ region, ...settings(clients.keys, clients.options, 'lightsail') }),
  );
  const signal = clients.options?.signal;
  let token: string | undefined;
  do {
    const page = await send('lightsail GetInstances', () =>
      api.send(new GetInstancesCommand({ pageToken: token }), { abortSignal: signal }),
    );
    for (const i of page.instances ?? []) {
      const name = i.name ?? '';
      if (i.publicIpAddress)
        into.addresses.push({ address: i.publicIpAddress, type: 'lightsail', name, region });
      for (const v6 of i.ipv6Addresses ?? [])
        into.addresses.push({ address: v6, type: 'lightsail', name, region });
    }
    token = page.nextPageToken || undefined;
  } while (token);
  do {
    const page = await send('lightsail GetStaticIps', () =>
      api.send(new GetStaticIpsCommand({ pageToken: token }), { abortSignal: signal }),
    );
    for (const ip of page.staticIps ?? [])
      if (ip.ipAddress)
        into.addresses.push({
          address: ip.ipAddress,
          type: 'static-ip',
          name: ip.name ?? ip.ipAddress,
          region,
        });
    token = page.nextPageToken || undefined;
  } while (token);
}

async function beanstalkRegion(clients: Clients, region: string, into: CloudSnapshot) {
  const api = opened(
    clients,
    new ElasticBeanstalkClient({ region, ...settings(clients.keys, clients.options, 'elasticbeanstalk') }),
  );
  let token: string | undefined;
  do {
    const page = await send('DescribeEnvironments', () =>
      api.send(new DescribeEnvironmentsCommand({ NextToken: token, IncludeDeleted: false }), {
        abortSignal: clients.options?.signal,
      }),
    );
    for (const env of page.Environments ?? [])
      if (env.CNAME && env.Status !== 'Terminated')
        into.resources.push({
          type: 'environment',
          host: env.CNAME.toLowerCase(),
          name: env.EnvironmentName ?? env.CNAME,
          region,
        });
    token = page.NextToken || undefined;
  } while (token);
}

/** Global Accelerator's API lives in us-west-2 and lists every accelerator of the account. */
async function accelerators(clients: Clients, into: CloudSnapshot) {
  const api = opened(
    clients,
    new GlobalAcceleratorClient({
      region: 'us-west-2',
      ...settings(clients.keys, clients.options, 'globalaccelerator'),
    }),
  );
  let token: string | undefined;
  do {
    const page = await send('ListAccelerators', () =>
      api.send(new ListAcceleratorsCommand({ MaxResults: 100, NextToken: token }), {
        abortSignal: clients.options?.signal,
      }),
    );
    for (const a of page.Accelerators ?? []) {
      const name = a.Name ?? a.AcceleratorArn ?? '';
      for (const set of a.IpSets ?? [])
        for (const address of set.IpAddresses ?? [])
          into.addresses.push({ address, type: 'accelerator', name });
      if (a.DnsName) into.resources.push({ type: 'accelerator', host: a.DnsName.toLowerCase(), name });
    }
    token = page.NextToken || undefined;
  } while (token);
}

/** Every host name a bucket answers on: what a CNAME to it would name. */
function bucketHosts(name: string, region: string | undefined): string[] {
  const hosts = [`${name}.s3.amazonaws.com`];
  if (region) {
    hosts.push(
      `${name}.s3.${region}.amazonaws.com`,
      `${name}.s3-website-${region}.amazonaws.com`,
      `${name}.s3-website.${region}.amazonaws.com`,
    );
  }
  return hosts.map((h) => h.toLowerCase());
}

async function buckets(clients: Clients, into: CloudSnapshot) {
  const s3 = opened(
    clients,
    new S3Client({
      region: 'us-east-1',
      forcePathStyle: true,
      ...settings(clients.keys, clients.options, 's3'),
    }),
  );
  let token: string | undefined;
  do {
    const page = await send('ListBuckets', () =>
      s3.send(new ListBucketsCommand({ ContinuationToken: token, MaxBuckets: 1000 }), {
        abortSignal: clients.options?.signal,
      }),
    );
    for (const bucket of page.Buckets ?? []) {
      if (!bucket.Name) continue;
      for (const host of bucketHosts(bucket.Name, bucket.BucketRegion))
        into.resources.push({ type: 'bucket', host, name: bucket.Name, region: bucket.BucketRegion });
    }
    token = page.ContinuationToken || undefined;
  } while (token);
}

async function distributions(clients: Clients, into: CloudSnapshot) {
  const api = opened(
    clients,
    new CloudFrontClient({ region: 'us-east-1', ...settings(clients.keys, clients.options, 'cloudfront') }),
  );
  let marker: string | undefined;
  do {
    const out = await send('ListDistributions', () =>
      api.send(new ListDistributionsCommand({ Marker: marker, MaxItems: 100 }), {
        abortSignal: clients.options?.signal,
      }),
    );
    const list = out.DistributionList;
    for (const d of list?.Items ?? [])
      if (d.DomainName)
        into.resources.push({
          type: 'distribution',
          host: d.DomainName.toLowerCase(),
          name: d.Id ?? d.DomainName,
        });
    marker = list?.IsTruncated ? list.NextMarker : undefined;
  } while (marker);
}

/** Who the keys are (account and ARN): GetCallerIdentity needs no right at all. */
async function caller(clients: Clients): Promise<{ account?: string; arn?: string }> {
  const sts = opened(
    clients,
    new STSClient({ region: 'us-east-1', ...settings(clients.keys, clients.options, 'sts') }),
  );
  try {
    const out = await sts.send(new GetCallerIdentityCommand({}), { abortSignal: clients.options?.signal });
    return { account: out.Account, arn: out.Arn };
  } catch {
    return {};
  }
}

/** The IAM principal behind an identity ARN: an assumed role's session is simulated as its role. */
function principalOf(arn: string): string {
  const session = /^arn:(aws[a-z-]*):sts::(\d{12}):assumed-role\/([^/]+)\/.+$/.exec(arn);
  return session ? `arn:${session[1]}:iam::${session[2]}:role/${session[3]}` : arn;
}

/**
 * Which of WRITE_ACTIONS the principal is allowed, from IAM's policy simulator: a read that changes
 * nothing. Null when the key may not simulate its own policy or IAM does not know the principal.
 */
async function simulatedWrites(clients: Clients, principal: string): Promise<string[] | null> {
  // The account's root key holds every right and cannot be simulated.
  if (/^arn:aws[a-z-]*:iam::\d{12}:root$/.test(principal)) return ['*'];
  const iam = opened(
    clients,
    new IAMClient({ region: 'us-east-1', ...settings(clients.keys, clients.options, 'iam') }),
  );
  const allowed: string[] = [];
  let marker: string | undefined;
  try {
    do {
      const out = await send('SimulatePrincipalPolicy', () =>
        iam.send(
          new SimulatePrincipalPolicyCommand({
            PolicySourceArn: principal,
            ActionNames: [...WRITE_ACTIONS],
            Marker: marker,
          }),
          { abortSignal: clients.options?.signal },
        ),
      );
      for (const result of out.EvaluationResults ?? [])
        if (result.EvalDecision === 'allowed' && result.EvalActionName) allowed.push(result.EvalActionName);
      marker = out.IsTruncated ? out.Marker : undefined;
    } while (marker);
  } catch (error) {
    if (error instanceof CloudError && error.failure !== 'unavailable') return null;
    throw error;
  }
  return allowed;
}

/** The same address seen twice (an Elastic IP on an instance): kept once, as its first holder. */
function unique(snapshot: CloudSnapshot): CloudSnapshot {
  const addresses = new Map<string, HeldAddress>();
  for (const a of snapshot.addresses) if (!addresses.has(a.address)) addresses.set(a.address, a);
  const resources = new Map<string, HeldResource>();
  for (const r of snapshot.resources)
    if (!resources.has(`${r.type} ${r.host}`)) resources.set(`${r.type} ${r.host}`, r);
  return {
    accounts: snapshot.accounts,
    addresses: [...addresses.values()],
    resources: [...resources.values()],
  };
}

/**
 * AWS through the official SDK clients (SigV4), with a key allowed only AWS_READ_POLICY's reads,
 * or the role it may assume. Every call is a Describe, a List or a Get.
 */
export const aws: CloudProvider<Credentials> = {
  id: 'aws',
  credentials: cloudCredentialSchemas.aws,
  async check(credentials, options) {
    const clients: Clients = { keys: await keysFor(credentials, options), options, open: [] };
    try {
      await regions(clients);
    } finally {
      for (const client of clients.open) client.destroy();
    }
  },
  async read(credentials, options) {
    const clients: Clients = { keys: await keysFor(credentials, options), options, open: [] };
    try {
      const snapshot: CloudSnapshot = { accounts: [], addresses: [], resources: [] };
      const owners = new Set<string>();
      const enabled = await regions(clients);
      // Regions one after the other: a throttled account is not made to throttle harder.
      for (const region of enabled) {
        await ec2Region(clients, region, snapshot, owners);
        await beanstalkRegion(clients, region, snapshot);
        if (LIGHTSAIL_REGIONS.has(region)) await lightsailRegion(clients, region, snapshot);
      }
      await accelerators(clients, snapshot);
      await buckets(clients, snapshot);
      await distributions(clients, snapshot);
      const { account } = await caller(clients);
      snapshot.accounts = account ? [account] : [...owners].sort();
      return unique(snapshot);
    } finally {
      for (const client of clients.open) client.destroy();
    }
  },
  /**
   * The key's own writes, and the role's when it assumes one, each simulated with its own keys:
   * possible only where AWS_RIGHTS_CHECK_POLICY lets the principal simulate itself.
   */
  async unneededRights(credentials, _snapshot, options) {
    const own = { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey };
    const checks: Array<{ keys: Keys; principal?: string }> = [{ keys: own }];
    if (credentials.roleArn)
      checks.push({ keys: await keysFor(credentials, options), principal: credentials.roleArn });
    const unneeded = new Set<string>();
    for (const check of checks) {
      const clients: Clients = { keys: check.keys, options, open: [] };
      try {
        const principal = check.principal ?? (await caller(clients)).arn;
        const writes = principal ? await simulatedWrites(clients, principalOf(principal)) : null;
        if (!writes) return null;
        for (const write of writes) unneeded.add(write);
      } finally {
        for (const client of clients.open) client.destroy();
      }
    }
    return [...unneeded].sort();
  },
};
