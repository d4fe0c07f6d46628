/**
 * BadDNS's wildcard module (tests/wildcard_test.py), restated in our data: a `*.` record whose
 * target dangles is one finding at the wildcard, shared by every name that answers as it does.
 * Skipped cases and disagreements: src/scanner/README.md, "Peer cases".
 */
import { FIXTURE_IP, peerSuite } from './harness.ts';

const T = 'tests/wildcard_test.py::';

peerSuite('BadDNS wildcard module', [
  {
    from: `${T}test_wildcard_cname_nxdomain_signature_match`,
    theirs: 'wildcard CNAME to a missing Azure name, HIGH',
    apex: 'w01.test',
    given: ['sub.w01.test'],
    records: [['*.w01.test', { type: 'CNAME', data: 'w01-bad.azurewebsites.net' }]],
    ours: [{ subdomain: '*.w01.test', target: 'w01-bad.azurewebsites.net', status: 'claimable' }],
  },
  {
    from: `${T}test_wildcard_no_wildcard_nxdomain`,
    theirs: 'no finding without a wildcard',
    apex: 'w02.test',
    given: ['sub.w02.test'],
    records: [],
    ours: [],
  },
  {
    from: `${T}test_wildcard_a_record_only`,
    theirs: 'no finding for a wildcard address',
    apex: 'w03.test',
    given: ['sub.w03.test'],
    records: [['*.w03.test', { type: 'A', data: FIXTURE_IP }]],
    ours: [],
  },
  {
    from: `${T}test_wildcard_target_is_registered_domain`,
    theirs: 'no finding when the scanned name is the registered domain itself',
    apex: 'w04.test',
    records: [],
    ours: [],
  },
  {
    from: `${T}test_wildcard_cname_resolves_not_vulnerable`,
    theirs: 'no finding for a wildcard CNAME to a live host',
    apex: 'w05.test',
    given: ['sub.w05.test'],
    records: [
      ['*.w05.test', { type: 'CNAME', data: 'healthy.w05-example.com' }],
      ['healthy.w05-example.com', { type: 'A', data: FIXTURE_IP }],
    ],
    ours: [],
  },
  {
    from: `${T}test_wildcard_deep_subdomain`,
    theirs: 'wildcard at *.sub, HIGH',
    apex: 'w06.test',
    given: ['deep.sub.w06.test'],
    records: [['*.sub.w06.test', { type: 'CNAME', data: 'w06-bad.azurewebsites.net' }]],
    // The scan probes the apex's wildcard; a deeper one shows through the name that answers by it.
    ours: [{ subdomain: 'deep.sub.w06.test', target: 'w06-bad.azurewebsites.net', status: 'claimable' }],
  },
  {
    from: `${T}test_wildcard_whois_unregistered`,
    theirs: 'wildcard CNAME into an unregistered domain (it resolves), CONFIRMED, HIGH',
    apex: 'w07.test',
    given: ['sub.w07.test'],
    records: [
      ['*.w07.test', { type: 'CNAME', data: 'w07-worse.com' }],
      ['w07-worse.com', { type: 'A', data: '127.0.0.2' }],
    ],
    unregistered: ['w07-worse.com'],
    ours: [{ subdomain: '*.w07.test', target: 'w07-worse.com', status: 'claimable' }],
  },
  {
    from: `${T}test_wildcard_generic_dangling_cname`,
    theirs: 'wildcard CNAME to a missing name of an unknown service (GENERIC), HIGH',
    apex: 'w08.test',
    given: ['sub.w08.test'],
    records: [
      ['*.w08.test', { type: 'CNAME', data: 'unknown.w08-random.net' }],
      ['w08-random.net', { type: 'NS', data: 'ns.w08-random.net' }],
    ],
    ours: [{ subdomain: '*.w08.test', target: 'unknown.w08-random.net', status: 'review' }],
  },
]);
