/**
 * BadDNS's NS module (tests/ns_test.py, the NS cases of tests/modules_coverage_test.py), restated
 * in our data: a delegation whose nameservers no longer hold the zone (they answer REFUSED to a
 * direct question). BadDNS scans the delegated name itself; we scan it as a name of its zone.
 * Skipped cases and disagreements: src/scanner/README.md, "Peer cases".
 */
import { FIXTURE_IP, type PeerCase, peerSuite } from './harness.ts';

const T = 'tests/ns_test.py::';
const M = 'tests/modules_coverage_test.py::';

/** `bad.<apex>` delegated to `server`, whose servers (the refusing nameserver fixture) dropped the zone. */
function lame(
  fn: string,
  theirs: string,
  n: number,
  server: string,
  ours: PeerCase['ours'][number]['status'] | 'none',
): PeerCase {
  const apex = `n${String(n).padStart(2, '0')}.test`;
  return {
    from: `${fn.includes('::') ? '' : T}${fn}`,
    theirs,
    apex,
    given: [`bad.${apex}`],
    records: [
      [`bad.${apex}`, { type: 'NS', data: server }],
      [server, { type: 'A', data: FIXTURE_IP }],
    ],
    behaviours: [[`bad.${apex}`, 'servfail']],
    ours:
      ours === 'none' ? [] : [{ subdomain: `bad.${apex}`, recordType: 'NS', target: server, status: ours }],
  };
}

peerSuite('BadDNS ns module', [
  lame(
    'test_ns_nosoa_signature',
    'WordPress.com NS without SOA, with known impact, MEDIUM',
    1,
    'ns1.wordpress.com',
    'likely',
  ),
  lame('test_ns_nosoa_generic', 'NS without SOA (generic), MEDIUM', 2, 'ns1.n02-random.com', 'review'),
  lame(
    'test_ns_nosoa_negative_signature',
    'no finding (UltraDNS negative signature)',
    3,
    'pdns1.ultradns.net',
    'review',
  ),
  lame(
    'test_ns_nosoa_positive_with_negative_loaded',
    'WordPress.com NS without SOA, MEDIUM',
    4,
    'ns2.wordpress.com',
    'likely',
  ),
  lame(
    'test_ns_nosoa_generic_with_negative_loaded',
    'NS without SOA (generic), MEDIUM',
    5,
    'ns1.n05-random.com',
    'review',
  ),
  {
    from: `${T}test_ns_label_too_long`,
    theirs: 'no finding for a name with a label over 63 characters',
    apex: 'n06.test',
    given: [`${'a'.repeat(64)}.n06.test`],
    records: [],
    ours: [],
    also: (result) => {
      if (!result.errors.some((e) => e.message.includes('a'.repeat(64))))
        throw new Error('the long label is not reported');
    },
  },
  {
    from: `${M}test_ns_no_ns_records`,
    theirs: 'no finding without NS records',
    apex: 'n07.test',
    given: ['bad.n07.test'],
    records: [['bad.n07.test', { type: 'A', data: FIXTURE_IP }]],
    ours: [],
  },
]);
