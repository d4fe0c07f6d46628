/**
 * BadDNS's TXT module (tests/txt_test.py, the TXT cases of tests/modules_coverage_test.py),
 * restated in our data: host names in TXT values, checked as CNAME targets would be.
 * Disagreements: src/scanner/README.md, "Peer cases".
 */
import { FIXTURE_IP, peerSuite } from './harness.ts';

const T = 'tests/txt_test.py::';
const M = 'tests/modules_coverage_test.py::';

peerSuite('BadDNS txt module', [
  {
    from: `${T}test_txt_match`,
    theirs: 'Azure NXDOMAIN host in a TXT value, LOW',
    apex: 't01.test',
    records: [['t01.test', { type: 'TXT', data: 't01-bad.azurewebsites.net' }]],
    ours: [
      { subdomain: 't01.test', recordType: 'TXT', target: 't01-bad.azurewebsites.net', status: 'likely' },
    ],
  },
  {
    from: `${T}test_txt_dontmatchip`,
    theirs: 'no finding for an address in a TXT value',
    apex: 't02.test',
    records: [['t02.test', { type: 'TXT', data: 'some text 100.100.100.100 some more text' }]],
    ours: [],
  },
  {
    from: `${M}test_txt_ip_address_skipped`,
    theirs: 'no finding for an SPF ip4 mechanism',
    apex: 't03.test',
    records: [['t03.test', { type: 'TXT', data: 'v=spf1 ip4:192.168.1.1 ~all' }]],
    ours: [],
  },
  {
    from: `${M}test_txt_with_cname_findings`,
    theirs: 'the SPF include is followed through its CNAME to a missing name (finding not asserted)',
    apex: 't04.test',
    records: [
      ['t04.test', { type: 'TXT', data: 'v=spf1 include:vuln.t04-random.net ~all' }],
      ['vuln.t04-random.net', { type: 'CNAME', data: 'target.t04-random.net' }],
      ['t04-random.net', { type: 'A', data: FIXTURE_IP }],
    ],
    ours: [{ subdomain: 't04.test', recordType: 'TXT', target: 'vuln.t04-random.net', status: 'review' }],
  },
  {
    from: `${M}test_txt_no_records`,
    theirs: 'no finding without TXT records',
    apex: 't05.test',
    records: [],
    ours: [],
  },
]);
