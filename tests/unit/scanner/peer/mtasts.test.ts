/**
 * BadDNS's MTA-STS module (tests/mtasts_test.py), restated in our data. The policy is fetched
 * through the same pinned, guarded probe as every page. Skipped cases and disagreements (a policy
 * that cannot be read, or that refuses the domain's MX, is `review` for us, MEDIUM for BadDNS):
 * src/scanner/README.md, "Peer cases".
 */
import { FIXTURE_IP, type PeerCase, peerSuite } from './harness.ts';

const T = 'tests/mtasts_test.py::';

const policy = (mode: string, ...mx: string[]) =>
  `version: STSv1\nmode: ${mode}\n${mx.map((m) => `mx: ${m}`).join('\n')}\nmax_age: 86400\n`;

/** `<apex>` with `_mta-sts` TXT, an `mta-sts` host serving `page` and the given MX hosts. */
function sts(
  fn: string,
  theirs: string,
  n: number,
  mx: string[],
  page: { status: number; body: string } | undefined,
  extra: Partial<PeerCase> = {},
): PeerCase {
  const apex = `ts${String(n).padStart(2, '0')}.test`;
  return {
    from: `${T}${fn}`,
    theirs,
    apex,
    records: [
      [`_mta-sts.${apex}`, { type: 'TXT', data: 'v=STSv1; id=abc123' }],
      [`mta-sts.${apex}`, { type: 'A', data: FIXTURE_IP }],
      ...mx.map(
        (host, i) =>
          [
            apex,
            { type: 'MX', data: { preference: 10 * (i + 1), exchange: host.replace('APEX', apex) } },
          ] as PeerCase['records'][number],
      ),
      ...mx
        .filter((h) => h.endsWith('APEX'))
        .map(
          (host) =>
            [host.replace('APEX', apex), { type: 'A', data: FIXTURE_IP }] as PeerCase['records'][number],
        ),
    ],
    pages: page
      ? [[`mta-sts.${apex}`, { status: page.status, body: page.body.replaceAll('APEX', apex) }]]
      : [],
    ours: [],
    ...extra,
  };
}

peerSuite('BadDNS mta-sts module', [
  {
    from: `${T}test_mtasts_no_txt_record`,
    theirs: 'no finding without an _mta-sts record',
    apex: 'ts01.test',
    records: [['ts01.test', { type: 'MX', data: { preference: 10, exchange: 'ns1.ts01.test' } }]],
    ours: [],
  },
  {
    from: `${T}test_mtasts_txt_exists_no_sts`,
    theirs: 'no finding when _mta-sts holds no STSv1 record',
    apex: 'ts02.test',
    records: [['_mta-sts.ts02.test', { type: 'TXT', data: 'v=spf1 include:ts02-example.com ~all' }]],
    registered: ['ts02-example.com'],
    ours: [],
  },
  {
    from: `${T}test_mtasts_dangling_cname_nxdomain`,
    theirs: 'dangling mta-sts host (CNAME to a missing Azure name), HIGH',
    apex: 'ts03.test',
    records: [
      ['_mta-sts.ts03.test', { type: 'TXT', data: 'v=STSv1; id=abc123' }],
      ['mta-sts.ts03.test', { type: 'CNAME', data: 'ts03-sts.azurewebsites.net' }],
      ['ts03.test', { type: 'MX', data: { preference: 10, exchange: 'ns1.ts03.test' } }],
    ],
    ours: [
      {
        subdomain: 'mta-sts.ts03.test',
        recordType: 'CNAME',
        target: 'ts03-sts.azurewebsites.net',
        status: 'claimable',
      },
    ],
  },
  sts(
    'test_mtasts_policy_unreachable',
    'orphaned MTA-STS record: policy HTTP 404, MEDIUM',
    4,
    ['mail.APEX'],
    { status: 404, body: 'not found' },
    {
      ours: [
        {
          subdomain: '_mta-sts.ts04.test',
          recordType: 'TXT',
          target: 'mta-sts.ts04.test',
          status: 'review',
          evidence: 'HTTP 404',
        },
      ],
    },
  ),
  sts(
    'test_mtasts_mx_mismatch_enforce',
    'MX mismatch in enforce mode, MEDIUM',
    5,
    ['mail.APEX', 'backup.APEX'],
    { status: 200, body: policy('enforce', 'mail.other-ts05.com') },
    {
      ours: [
        {
          subdomain: '_mta-sts.ts05.test',
          recordType: 'TXT',
          target: 'mta-sts.ts05.test',
          status: 'review',
          evidence: 'backup.ts05.test',
        },
      ],
    },
  ),
  sts('test_mtasts_mx_mismatch_testing_mode', 'no finding (testing mode)', 6, ['mail.APEX', 'backup.APEX'], {
    status: 200,
    body: policy('testing', 'mail.APEX'),
  }),
  sts(
    'test_mtasts_dangling_mx_domain_unregistered',
    'policy mx host in an unregistered domain, MEDIUM',
    7,
    ['mail.ts07-worse.com'],
    { status: 200, body: policy('enforce', 'mail.ts07-worse.com', 'mail.APEX') },
    {
      unregistered: ['ts07-worse.com'],
      ours: [
        { subdomain: 'ts07.test', recordType: 'MX', target: 'mail.ts07-worse.com', status: 'claimable' },
      ],
    },
  ),
  sts('test_mtasts_all_correct', 'no finding', 8, ['mail.APEX'], {
    status: 200,
    body: policy('enforce', 'mail.APEX', '*.APEX'),
  }),
]);
