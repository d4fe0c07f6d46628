import { describe, expect, it } from 'vitest';
import { readS3 } from '../../../../src/scanner/proof/s3.ts';

const xml = (code: string, bucket?: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>m</Message>${bucket === undefined ? '' : `<BucketName>${bucket}</BucketName>`}<RequestId>r</RequestId></Error>`;
const website = (code: string, bucket: string) =>
  `<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1><ul><li>Code: ${code}</li><li>Message: The specified bucket does not exist</li><li>BucketName: ${bucket}</li></ul></body></html>`;

/** S3's answers to an anonymous request for `assets.acme.com`, and what each proves. */
const ANSWERS: Array<[string, number, Record<string, string>, string, unknown]> = [
  [
    'REST NoSuchBucket',
    404,
    {},
    xml('NoSuchBucket', 'assets.acme.com'),
    { answer: { free: true, said: '404 NoSuchBucket' } },
  ],
  ['website NoSuchBucket', 404, {}, website('NoSuchBucket', 'assets.acme.com'), { answer: { free: true } }],
  ['NoSuchBucket without a bucket name', 404, {}, xml('NoSuchBucket'), { answer: { free: true } }],
  [
    'NoSuchBucket for another bucket',
    404,
    {},
    xml('NoSuchBucket', 'other.acme.com'),
    { unknown: 'S3 answered NoSuchBucket for other.acme.com, not assets.acme.com' },
  ],
  [
    'the region header of a bucket that exists',
    301,
    { 'x-amz-bucket-region': 'eu-west-1' },
    xml('PermanentRedirect'),
    { answer: { free: false, said: 'x-amz-bucket-region: eu-west-1' } },
  ],
  ['access denied', 403, {}, xml('AccessDenied'), { answer: { free: false, said: '403 AccessDenied' } }],
  ['content', 200, {}, '<html>welcome</html>', { answer: { free: false } }],
  [
    'a missing key in a bucket that exists',
    404,
    { 'x-amz-bucket-region': 'us-east-1' },
    xml('NoSuchKey'),
    { answer: { free: false } },
  ],
  ['slow down', 503, {}, xml('SlowDown'), { unknown: 'S3 answered 503 without a bucket error' }],
  [
    'page text only, not S3 error markup',
    404,
    {},
    '<h1>NoSuchBucket</h1><p>The specified bucket does not exist</p>',
    { unknown: 'S3 answered 404 without a bucket error' },
  ],
];

describe("S3's anonymous answer as proof", () => {
  it.each(ANSWERS)('%s', (_what, status, headers, body, expected) => {
    expect(readS3('assets.acme.com', status, headers, body)).toMatchObject(expected as object);
  });
});
