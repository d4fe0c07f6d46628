import { CLOUD_NAMES } from '../../connectors/cloud/provider.ts';
import type { Detected } from '../types.ts';
import { type CheckRun, free, type ProofCheck, type Subject, taken, unknown } from './check.ts';

/**
 * An S3 endpoint, REST or website, with the bucket in front when the name is virtual-hosted
 * (`bucket.s3.eu-west-1.amazonaws.com`); without it (a CNAME to `s3-website-us-east-1.amazonaws.com`)
 * the bucket is the record's own name, as S3 reads it from the Host header.
 */
const ENDPOINT = /^(?:(.+?)\.)?(s3(?:-website)?(?:[.-][a-z0-9-]+)*\.amazonaws\.com)$/;

/**
 * S3's answer to an anonymous request for the bucket: the `NoSuchBucket` error (XML from the REST
 * endpoint, HTML from the website endpoint) for this very bucket means nobody holds the name; an
 * `x-amz-bucket-region` header or a 403 means an account does. Anything else proves nothing.
 */
export function readS3(bucket: string, status: number, headers: Record<string, string>, body: string) {
  const region = headers['x-amz-bucket-region'];
  if (region) return taken(bucket, `x-amz-bucket-region: ${region}`);
  if (status === 403)
    return taken(bucket, `${status} ${/<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? 'AccessDenied'}`);
  const xml = /<Code>NoSuchBucket<\/Code>/.test(body);
  const html = /<li>Code: NoSuchBucket<\/li>/.test(body);
  if (status === 404 && (xml || html)) {
    const named = (xml ? /<BucketName>([^<]*)<\/BucketName>/ : /<li>BucketName: ([^<]*)<\/li>/).exec(
      body,
    )?.[1];
    if (named !== undefined && named !== bucket)
      return unknown(`S3 answered NoSuchBucket for ${named}, not ${bucket}`);
    return free(bucket, `${status} NoSuchBucket`);
  }
  if (status >= 200 && status < 300) return taken(bucket, `${status}: the bucket serves content`);
  return unknown(`S3 answered ${status} without a bucket error`);
}

/**
 * The findings that point at a bucket: the catalogue's S3 entry, and a bucket a connected AWS
 * account had and no longer lists (that finding names the cloud, the rule of its kind).
 */
const BUCKET_SERVICES = new Set(['AWS S3', CLOUD_NAMES.aws]);

export const s3Check: ProofCheck = {
  id: 's3-bucket',
  provider: 's3',
  subject(finding: Detected): Subject | undefined {
    if (!BUCKET_SERVICES.has(finding.service)) return undefined;
    const m = ENDPOINT.exec(finding.target);
    if (!m) return undefined;
    const bucket = m[1] ?? finding.subdomain;
    return { name: bucket, host: m[1] ? finding.target : finding.subdomain, endpoint: finding.target };
  },
  // The port tells one set of servers from another (the fixtures of two tests, say).
  where: (subject, { ctx }) => `${subject.host} ${subject.endpoint} ${ctx.settings.ports.http}`,
  async ask(subject, { ctx }: CheckRun) {
    const address = await ctx.resolveAddress(subject.endpoint as string, true);
    if (!address) return unknown(`${subject.endpoint} has no address`);
    const result = await ctx.probe(subject.host as string, address, 'http', undefined, true);
    const response = result.responses[0];
    if (!response) return unknown(`S3 did not answer (${result.error?.message ?? 'no response'})`);
    return readS3(subject.name, response.status, response.headers, response.body);
  },
};
