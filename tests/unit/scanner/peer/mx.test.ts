/**
 * BadDNS's MX module (tests/mx_test.py, the MX cases of tests/modules_coverage_test.py), restated
 * in our data. Skipped cases and disagreements: src/scanner/README.md, "Peer cases".
 */
import { FIXTURE_IP, peerSuite } from './harness.ts';

const T = 'tests/mx_test.py::';
const M = 'tests/modules_coverage_test.py::';
const PAST = { events: [{ eventAction: 'expiration', eventDate: '2023-02-25T15:56:10Z' }] };

peerSuite('BadDNS mx module', [
  {
    from: `${T}test_mx_unregistered`,
    theirs: 'MX unregistered, MEDIUM',
    apex: 'm01.test',
    records: [['m01.test', { type: 'MX', data: { preference: 10, exchange: 'mail2.m01-worse.com' } }]],
    unregistered: ['m01-worse.com'],
    ours: [{ subdomain: 'm01.test', recordType: 'MX', target: 'mail2.m01-worse.com', status: 'claimable' }],
  },
  {
    from: `${T}test_mx_expired`,
    theirs: 'MX Registration Expired, MEDIUM',
    apex: 'm02.test',
    records: [
      ['m02.test', { type: 'MX', data: { preference: 10, exchange: 'mail2.m02-worse.com' } }],
      ['mail2.m02-worse.com', { type: 'A', data: FIXTURE_IP }],
    ],
    rdap: [['m02-worse.com', PAST]],
    ours: [{ subdomain: 'm02.test', recordType: 'MX', target: 'mail2.m02-worse.com', status: 'likely' }],
  },
  {
    from: `${M}test_mx_empty_record`,
    theirs: 'an empty MX host is skipped, the other MX host checked (no finding)',
    apex: 'm03.test',
    records: [
      ['m03.test', { type: 'MX', data: { preference: 0, exchange: '.' } }],
      ['m03.test', { type: 'MX', data: { preference: 10, exchange: 'mail.m03.test' } }],
      ['mail.m03.test', { type: 'A', data: FIXTURE_IP }],
    ],
    ours: [],
  },
  {
    from: `${M}test_mx_no_records`,
    theirs: 'no MX records, no finding',
    apex: 'm04.test',
    records: [],
    ours: [],
  },
]);
