/**
 * The verdicts of BadDNS's command-line tests (tests/cli_test.py), restated in our data and scanned
 * by the engine the `danglewatch scan` command calls. Their module and mode flags (`-m CNAME`,
 * `--direct`) are BadDNS's own arguments; the three argument-validation tests are skipped
 * (src/scanner/README.md, "Peer cases"), as is the disagreement on `--direct`: page text on a name
 * that points at no service is never our evidence.
 */
import { FIXTURE_IP, peerSuite } from './harness.ts';

const T = 'tests/cli_test.py::';

peerSuite('BadDNS command line', [
  {
    from: `${T}test_cli_cname_nxdomain`,
    theirs: 'Vulnerable! (Azure, NXDOMAIN)',
    apex: 'cl01.test',
    given: ['bad.cl01.test'],
    records: [['bad.cl01.test', { type: 'CNAME', data: 'cl01-bad.azurewebsites.net' }]],
    ours: [{ subdomain: 'bad.cl01.test', target: 'cl01-bad.azurewebsites.net', status: 'claimable' }],
  },
  {
    from: `${T}test_cli_cname_http`,
    theirs: 'Vulnerable! (Bigcartel page)',
    apex: 'cl02.test',
    given: ['bad.cl02.test'],
    records: [
      ['bad.cl02.test', { type: 'CNAME', data: 'cl02.bigcartel.com' }],
      ['cl02.bigcartel.com', { type: 'A', data: FIXTURE_IP }],
    ],
    pages: [['bad.cl02.test', { status: 200, body: '<h1>Oops! We couldn&#8217;t find that page.</h1>' }]],
    ours: [{ subdomain: 'bad.cl02.test', target: 'cl02.bigcartel.com', status: 'likely' }],
  },
  {
    from: `${T}test_cli_direct`,
    theirs: 'Vulnerable! (AWS bucket page text on a name with an address, direct mode)',
    apex: 'cl03.test',
    given: ['bad.cl03.test'],
    records: [['bad.cl03.test', { type: 'A', data: FIXTURE_IP }]],
    pages: [
      [
        'bad.cl03.test',
        { status: 200, body: '<li>BucketName: bad.cl03.test</li>The specified bucket does not exist' },
      ],
    ],
    ours: [],
  },
]);
