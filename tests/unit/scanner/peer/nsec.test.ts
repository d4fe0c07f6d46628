/**
 * BadDNS's NSEC module (tests/nsec_test.py, the NSEC cases of tests/modules_coverage_test.py),
 * restated in our data. BadDNS reports a walkable zone (INFO); we report no finding for it and
 * walk the chain instead, so every name it lists is scanned (src/scanner/README.md, "Peer cases").
 */
import { expect } from 'vitest';
import type { FixtureRecord } from '../../../fixtures/dns-server.ts';
import { type PeerCase, peerSuite } from './harness.ts';

const T = 'tests/nsec_test.py::';
const M = 'tests/modules_coverage_test.py::';

const nsec = (owner: string, next: string): [string, FixtureRecord] => [
  owner,
  { type: 'NSEC', data: { nextDomain: next, rrtypes: ['A', 'NSEC'] } },
];

/** The names the scan checked, besides the apex and its nameserver. */
const walked = (apex: string, names: string[]) => (result: { subdomains: string[] }) => {
  const found = result.subdomains.filter((n) => n !== apex && n !== `ns1.${apex}`);
  expect(found.sort()).toEqual(names.sort());
};

function chain(
  fn: string,
  theirs: string,
  n: number,
  links: Array<[string, string]>,
  names: string[],
  extra: Partial<PeerCase> = {},
): PeerCase {
  const apex = `ns${String(n).padStart(2, '0')}.test`;
  const full = (label: string) => (label === '@' ? apex : label.includes('.') ? label : `${label}.${apex}`);
  return {
    from: fn,
    theirs,
    apex,
    records: links.map(([from, to]) => nsec(full(from), full(to))),
    options: { wordlist: [] },
    ours: [],
    also: walked(apex, names.map(full)),
    ...extra,
  };
}

peerSuite('BadDNS nsec module', [
  chain(
    `${T}test_nsec_match`,
    'NSEC zone walking enabled, INFO',
    1,
    [
      ['@', 'asdf'],
      ['asdf', 'zzzz'],
      ['zzzz', 'xyz'],
    ],
    ['asdf', 'zzzz', 'xyz'],
  ),
  chain(
    `${T}test_nsec_preventloop`,
    'walk stops at the loop, INFO',
    2,
    [
      ['@', 'asdf'],
      ['asdf', 'zzzz'],
      ['zzzz', 'xyz'],
      ['xyz', '@'],
    ],
    ['asdf', 'zzzz', 'xyz'],
  ),
  chain(`${T}test_nsec_preventwildcard`, 'no finding (NSEC names itself)', 3, [['@', '@']], []),
  {
    ...chain(
      `${T}test_nsec_cname_false_positive`,
      'no finding (the chain belongs to the CDN)',
      4,
      [],
      ['sub'],
    ),
    records: [
      ['sub.ns04.test', { type: 'CNAME', data: 'cdn.ns04-provider.com' }],
      ['cdn.ns04-provider.com', { type: 'A', data: '127.0.0.1' }],
      nsec('cdn.ns04-provider.com', 'cdn2.ns04-provider.com'),
      nsec('cdn2.ns04-provider.com', 'cdn3.ns04-provider.com'),
    ],
    given: ['sub.ns04.test'],
  },
  chain(`${T}test_nsec_empty_chain`, 'no finding (the chain names no host)', 5, [['@', '\\000']], []),
  chain(
    `${T}test_nsec_walk_true_but_chain_empty`,
    'no finding (the chain names no host)',
    6,
    [['@', '\\001']],
    [],
  ),
  chain(
    `${T}test_nsec_all_nonmatching`,
    'no finding (the chain leaves the zone)',
    7,
    [
      ['@', 'foo.ns07-other.com'],
      ['foo.ns07-other.com', 'bar.ns07-other.com'],
    ],
    [],
  ),
  chain(
    `${M}test_nsec_single_nonmatching_result`,
    'no finding (one name outside the zone)',
    8,
    [['@', 'ns08-other.com']],
    [],
  ),
  chain(`${M}test_nsec_wildcard_protection`, 'no finding (NSEC names itself)', 9, [['@', '@']], []),
]);
