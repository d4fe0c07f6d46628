// The AWS inventory read through the official SDK clients against a loopback fake that speaks each
// service's wire format and checks every SigV4 signature: paging, throttling, a refused key, and
// nothing but reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aws } from '../../../../src/connectors/aws/cloud.ts';
import { CloudError } from '../../../../src/connectors/cloud/provider.ts';
import { type AwsFake, emptyWorld, isReadAction, startAwsFake } from '../../../fixtures/cloud/aws.ts';

const KEY = { accessKeyId: 'AKIAFAKEINVENTORY123', secretAccessKey: 'fake-secret-key-for-tests-only' };

describe('AWS inventory', () => {
  let fake: AwsFake;
  beforeAll(async () => {
    const world = emptyWorld();
    world.elasticIps.push({ region: 'eu-west-1', ip: '127.0.10.1', allocationId: 'eipalloc-1' });
    for (let i = 0; i < 7; i++)
      world.instances.push({
        region: 'us-east-1',
        id: `i-${i}`,
        ip: `127.0.11.${i}`,
        ipv6: i === 0 ? 'fd00::11' : undefined,
      });
    for (let i = 0; i < 5; i++)
      world.interfaces.push({ region: 'eu-west-1', id: `eni-${i}`, ip: `127.0.12.${i}` });
    world.lightsail.push({ region: 'eu-west-1', name: 'blog', ip: '127.0.13.1' });
    world.staticIps.push({ region: 'us-east-1', name: 'blog-ip', ip: '127.0.13.2' });
    world.accelerators.push({
      name: 'edge',
      ips: ['127.0.14.1', '127.0.14.2'],
      dnsName: 'a123.awsglobalaccelerator.com',
    });
    world.buckets.push(
      { name: 'assets-acme', region: 'eu-west-1' },
      { name: 'logs-acme', region: 'us-east-1' },
      { name: 'www-acme', region: 'us-east-1' },
    );
    world.distributions.push(
      { id: 'E1', domainName: 'd111.cloudfront.net' },
      { id: 'E2', domainName: 'd222.cloudfront.net' },
      { id: 'E3', domainName: 'd333.cloudfront.net' },
    );
    world.environments.push({
      region: 'eu-west-1',
      name: 'shop-prod',
      cname: 'shop-prod.eu-west-1.elasticbeanstalk.com',
    });
    fake = await startAwsFake({ ...KEY, world, pageSize: 2 });
  });
  afterAll(() => fake?.close());
  const options = () => ({ env: fake.env, maxRetries: 3 });

  it('reads every address and resource, page after page, with reads only', async () => {
    fake.requests.length = 0;
    const snapshot = await aws.read(KEY, options());
    expect(snapshot.accounts).toEqual(['123456789012']);
    const addresses = snapshot.addresses.map((a) => `${a.type} ${a.address}`).sort();
    expect(addresses).toEqual(
      [
        'elastic-ip 127.0.10.1',
        ...[0, 1, 2, 3, 4, 5, 6].map((i) => `instance 127.0.11.${i}`),
        'instance fd00::11',
        ...[0, 1, 2, 3, 4].map((i) => `network-interface 127.0.12.${i}`),
        'lightsail 127.0.13.1',
        'static-ip 127.0.13.2',
        'accelerator 127.0.14.1',
        'accelerator 127.0.14.2',
      ].sort(),
    );
    const hosts = snapshot.resources.map((r) => `${r.type} ${r.host}`);
    expect(hosts).toContain('bucket assets-acme.s3.amazonaws.com');
    expect(hosts).toContain('bucket assets-acme.s3-website-eu-west-1.amazonaws.com');
    expect(hosts).toContain('bucket www-acme.s3-website-us-east-1.amazonaws.com');
    expect(hosts).toContain('distribution d333.cloudfront.net');
    expect(hosts).toContain('environment shop-prod.eu-west-1.elasticbeanstalk.com');
    expect(hosts).toContain('accelerator a123.awsglobalaccelerator.com');
    // Seven instances at two a page: four pages in us-east-1, one in eu-west-1.
    expect(
      fake.requests.filter((r) => r.action === 'DescribeInstances' && r.region === 'us-east-1'),
    ).toHaveLength(4);
    expect(fake.requests.filter((r) => r.action === 'ListDistributions')).toHaveLength(2);
    expect(fake.requests.filter((r) => r.action === 'ListBuckets')).toHaveLength(2);
    const services = new Set(fake.requests.map((r) => r.service));
    expect([...services].sort()).toEqual([
      'cloudfront',
      'ec2',
      'elasticbeanstalk',
      'globalaccelerator',
      'lightsail',
      's3',
      'sts',
    ]);
    expect(fake.requests.filter((r) => !isReadAction(r.action))).toEqual([]);
  });

  it('waits out throttling and reads on', async () => {
    fake.faults.push(
      { service: 'ec2', status: 503, code: 'RequestLimitExceeded', message: 'Request limit exceeded.' },
      { service: 'cloudfront', status: 400, code: 'Throttling', message: 'Rate exceeded' },
    );
    fake.requests.length = 0;
    const snapshot = await aws.read(KEY, options());
    expect(snapshot.addresses.length).toBe(18);
    expect(fake.faults).toEqual([]);
    expect(fake.requests.filter((r) => r.action === 'DescribeRegions').length).toBe(2);
  });

  it('gives up after the retries with AWS words, as unavailable', async () => {
    for (let i = 0; i < 3; i++)
      fake.faults.push({ service: 'ec2', status: 503, code: 'RequestLimitExceeded' });
    const failure = await aws.read(KEY, { ...options(), maxRetries: 2 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CloudError);
    expect(failure).toMatchObject({ failure: 'unavailable' });
    expect((failure as Error).message).toBe('AWS could not be reached; it will be tried again later');
    expect((failure as CloudError).detail).toMatch(/RequestLimitExceeded/);
  });

  it('assumes the role it is given and reads with the temporary keys; a role it may not assume is refused', async () => {
    const roleArn = 'arn:aws:iam::210987654321:role/DangleWatchInventory';
    fake.roles.add(roleArn);
    fake.requests.length = 0;
    fake.signers.length = 0;
    const snapshot = await aws.read({ ...KEY, roleArn }, options());
    expect(snapshot.addresses).toHaveLength(18);
    expect(fake.requests[0]).toMatchObject({ service: 'sts', action: 'AssumeRole' });
    expect(fake.signers[0]).toBe(KEY.accessKeyId);
    expect(new Set(fake.signers.slice(1))).toEqual(new Set([expect.stringMatching(/^ASIA/)]));
    // AssumeRole changes nothing in the account; every other call reads.
    expect(fake.requests.slice(1).filter((r) => !isReadAction(r.action))).toEqual([]);
    const refused = await aws
      .check({ ...KEY, roleArn: 'arn:aws:iam::210987654321:role/Other' }, options())
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ failure: 'credentials' });
    expect((refused as Error).message).toBe('AWS did not accept the credential');
    expect((refused as CloudError).detail).toMatch(
      /^AssumeRole: AccessDenied: User: .* is not authorized to perform: sts:AssumeRole/,
    );
  });

  it('says a refused key is refused, in AWS words', async () => {
    const failure = await aws
      .check({ accessKeyId: KEY.accessKeyId, secretAccessKey: 'wrong' }, options())
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CloudError);
    expect(failure).toMatchObject({ failure: 'credentials' });
    expect((failure as Error).message).toBe('AWS did not accept the credential');
    expect((failure as CloudError).detail).toMatch(
      /^DescribeRegions: SignatureDoesNotMatch: The request signature/,
    );
    const unknown = await aws
      .check({ accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'x' }, options())
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ failure: 'credentials' });
    expect((unknown as CloudError).detail).toMatch(/AuthFailure/);
  });

  describe("rights beyond reading, from IAM's policy simulator", () => {
    const snapshot = { accounts: ['123456789012'], addresses: [], resources: [] };
    const reset = (world: Partial<typeof fake.world>) => {
      Object.assign(fake.world, {
        callerArn: 'arn:aws:iam::123456789012:user/danglewatch',
        maySimulate: true,
        writeRights: [],
        ...world,
      });
      fake.requests.length = 0;
    };
    afterAll(() => reset({ maySimulate: false }));

    it('names each write the key may make, page after page, with reads only', async () => {
      reset({ writeRights: ['ec2:*', 's3:PutObject'] });
      const rights = await aws.unneededRights?.(KEY, snapshot, options());
      expect(rights).toEqual([
        'ec2:AllocateAddress',
        'ec2:AssociateAddress',
        'ec2:AuthorizeSecurityGroupIngress',
        'ec2:ModifyInstanceAttribute',
        'ec2:ReleaseAddress',
        'ec2:RunInstances',
        'ec2:TerminateInstances',
        's3:PutObject',
      ]);
      const simulations = fake.requests.filter((r) => r.service === 'iam');
      // Two results a page: every asked action comes back over several pages.
      expect(simulations.length).toBeGreaterThan(5);
      expect(simulations.every((r) => r.action === 'SimulatePrincipalPolicy')).toBe(true);
      expect(fake.requests.filter((r) => !isReadAction(r.action))).toEqual([]);
    });

    it('answers none for a key that holds only the read policy', async () => {
      reset({});
      expect(await aws.unneededRights?.(KEY, snapshot, options())).toEqual([]);
    });

    it('says it could not tell when the key may not simulate itself', async () => {
      reset({ maySimulate: false, writeRights: ['*'] });
      expect(await aws.unneededRights?.(KEY, snapshot, options())).toBeNull();
      expect(fake.requests.map((r) => r.action)).toEqual(['GetCallerIdentity', 'SimulatePrincipalPolicy']);
    });

    it("answers every right for the account's root key, without asking IAM", async () => {
      reset({ callerArn: 'arn:aws:iam::123456789012:root' });
      expect(await aws.unneededRights?.(KEY, snapshot, options())).toEqual(['*']);
      expect(fake.requests.filter((r) => r.service === 'iam')).toEqual([]);
    });

    it('asks for the key and for the role it assumes, each signed with its own keys', async () => {
      const roleArn = 'arn:aws:iam::210987654321:role/DangleWatchInventory';
      fake.roles.add(roleArn);
      reset({ writeRights: ['iam:PassRole'] });
      fake.signers.length = 0;
      expect(await aws.unneededRights?.({ ...KEY, roleArn }, snapshot, options())).toEqual(['iam:PassRole']);
      const signers = fake.requests.map((r, i) => `${r.action} ${fake.signers[i]?.slice(0, 4)}`);
      expect(signers).toContain(`SimulatePrincipalPolicy ${KEY.accessKeyId.slice(0, 4)}`);
      expect(signers).toContain('SimulatePrincipalPolicy ASIA');
    });

    it('simulates a session key as its role, and cannot tell for a role IAM does not know', async () => {
      fake.roles.add('arn:aws:iam::123456789012:role/Deployer');
      reset({
        callerArn: 'arn:aws:sts::123456789012:assumed-role/Deployer/ci-session',
        writeRights: ['route53:ChangeResourceRecordSets'],
      });
      expect(await aws.unneededRights?.(KEY, snapshot, options())).toEqual([
        'route53:ChangeResourceRecordSets',
      ]);
      // A role with a path: the session's ARN does not carry it, so IAM knows no role by that name.
      reset({ callerArn: 'arn:aws:sts::123456789012:assumed-role/Pathed/ci-session', writeRights: ['*'] });
      expect(await aws.unneededRights?.(KEY, snapshot, options())).toBeNull();
    });
  });
});
