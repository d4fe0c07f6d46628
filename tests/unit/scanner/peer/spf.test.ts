/**
 * BadDNS's SPF module (tests/spf_test.py), restated in our data. Its policy findings (INFO: no
 * record, +all, ?all, several records, more than 10 lookups) are posture, not dangling records: we
 * report none of them. Its takeover findings (an include or redirect into a domain nobody holds,
 * or whose registration expired) we report. Skipped cases and disagreements: src/scanner/README.md,
 * "Peer cases".
 */
import { spfTargets } from '../../../../src/scanner/detect/mail.ts';
import { registrableDomain } from '../../../../src/scanner/discover/rdap.ts';
import type { FixtureRecord } from '../../../fixtures/dns-server.ts';
import { type PeerCase, peerSuite } from './harness.ts';

const T = 'tests/spf_test.py::';
const PAST = { events: [{ eventAction: 'expiration', eventDate: '2023-02-25T15:56:10Z' }] };

/**
 * A case whose SPF record(s) sit at the apex (or, with `scanned`, a name below it is scanned too);
 * every include it names exists and is registered unless the case says otherwise.
 */
function spf(
  fn: string,
  theirs: string,
  n: number,
  txt: string[],
  extra: Partial<PeerCase> & { scanned?: string } = {},
): PeerCase {
  const apex = `s${String(n).padStart(2, '0')}.test`;
  const tag = `s${String(n).padStart(2, '0')}`;
  const records: Array<[string, FixtureRecord]> = txt.map((t) => [
    apex,
    {
      type: 'TXT',
      data: t.replaceAll('example.com', `${tag}-example.com`).replaceAll('worse.dns', `${tag}-worse.com`),
    },
  ]);
  const unregistered = new Set(extra.unregistered ?? []);
  const registered: string[] = [];
  for (const [, record] of [...records]) {
    for (const include of spfTargets(record.data as string)) {
      const domain = registrableDomain(include);
      if (!domain || unregistered.has(domain) || include.endsWith(apex)) continue;
      if (!extra.rdap?.some(([d]) => d === domain)) registered.push(domain);
      records.push([include, { type: 'TXT', data: 'v=spf1 -all' }]);
    }
  }
  if (extra.scanned) records.push([`${extra.scanned}.${apex}`, { type: 'A', data: '127.0.0.1' }]);
  return {
    from: `${T}${fn}`,
    theirs,
    apex,
    given: extra.scanned ? [`${extra.scanned}.${apex}`] : [],
    records,
    registered,
    ours: [],
    ...extra,
  };
}

const tenIncludes = (count: number) =>
  `v=spf1 ${Array.from({ length: count }, (_, i) => `include:spf${i}.example.com`).join(' ')} -all`;

peerSuite('BadDNS spf module', [
  spf('test_spf_no_txt_records', 'INFO: No SPF record', 1, []),
  spf('test_spf_txt_exists_but_no_spf', 'INFO: No SPF record', 2, ['v=DMARC1; p=reject']),
  spf('test_spf_plus_all', 'INFO: +all', 3, ['v=spf1 +all']),
  spf('test_spf_bare_all_implicit_plus', 'INFO: +all', 4, ['v=spf1 all']),
  spf('test_spf_neutral_all', 'INFO: ?all', 5, ['v=spf1 ?all']),
  spf('test_spf_softfail_all_no_finding', 'no finding', 6, ['v=spf1 ~all']),
  spf('test_spf_hardfail_all_no_finding', 'no finding', 7, ['v=spf1 -all']),
  spf('test_spf_multiple_records', 'INFO: Multiple SPF records (2)', 8, [
    'v=spf1 -all',
    'v=spf1 include:example.com -all',
  ]),
  spf('test_spf_dns_lookup_exceeds_10', 'INFO: DNS lookup count: 11', 9, [tenIncludes(11)]),
  spf('test_spf_dns_lookup_at_10_no_finding', 'no finding', 10, [tenIncludes(10)]),
  spf('test_spf_fully_compliant', 'no finding', 11, ['v=spf1 include:_spf.example.com ~all']),
  spf('test_spf_case_insensitive', 'no finding', 12, ['V=SPF1 -all']),
  spf('test_spf_no_all_mechanism_no_finding', 'no +all/?all finding', 13, ['v=spf1 include:example.com']),
  spf('test_spf_empty_include_no_crash', 'no takeover finding, no crash', 14, ['v=spf1 include: -all']),
  spf(
    'test_spf_include_unregistered',
    'SPF include unregistered, MEDIUM',
    15,
    ['v=spf1 include:worse.dns -all'],
    {
      unregistered: ['s15-worse.com'],
      ours: [{ subdomain: 's15.test', recordType: 'TXT', target: 's15-worse.com', status: 'claimable' }],
    },
  ),
  spf(
    'test_spf_include_expired',
    'SPF include Registration Expired, MEDIUM',
    16,
    ['v=spf1 include:worse.dns -all'],
    {
      rdap: [['s16-worse.com', PAST]],
      ours: [{ subdomain: 's16.test', recordType: 'TXT', target: 's16-worse.com', status: 'likely' }],
    },
  ),
  spf(
    'test_spf_redirect_unregistered',
    'SPF redirect unregistered, MEDIUM',
    17,
    ['v=spf1 redirect=worse.dns'],
    {
      unregistered: ['s17-worse.com'],
      ours: [{ subdomain: 's17.test', recordType: 'TXT', target: 's17-worse.com', status: 'claimable' }],
    },
  ),
  spf('test_spf_include_registered_no_finding', 'no takeover finding', 18, ['v=spf1 include:worse.dns -all']),
  spf(
    'test_spf_combined_policy_and_takeover',
    '+all (INFO) and SPF include unregistered (MEDIUM)',
    19,
    ['v=spf1 include:worse.dns +all'],
    {
      unregistered: ['s19-worse.com'],
      ours: [{ subdomain: 's19.test', recordType: 'TXT', target: 's19-worse.com', status: 'claimable' }],
    },
  ),
  spf('test_spf_subdomain_inherits_from_org', 'no finding', 20, ['v=spf1 include:_spf.example.com -all'], {
    scanned: 'sub',
  }),
  spf('test_spf_subdomain_inherits_policy_issues', 'INFO: +all inherited', 21, ['v=spf1 +all'], {
    scanned: 'sub',
  }),
  spf('test_spf_subdomain_no_org_record', 'INFO: No SPF record', 22, [], { scanned: 'sub' }),
  {
    ...spf('test_spf_subdomain_own_record_overrides', 'INFO: +all of the subdomain', 23, ['v=spf1 -all']),
    given: ['sub.s23.test'],
    records: [
      ['s23.test', { type: 'TXT', data: 'v=spf1 -all' }],
      ['sub.s23.test', { type: 'A', data: '127.0.0.1' }],
      ['sub.s23.test', { type: 'MX', data: { preference: 10, exchange: 'sub.s23.test' } }],
      ['sub.s23.test', { type: 'TXT', data: 'v=spf1 +all' }],
    ],
  },
  spf('test_spf_deep_subdomain_inherits', 'no finding', 24, ['v=spf1 include:_spf.example.com -all'], {
    scanned: 'a.b.c',
  }),
  // BadDNS reports the organisation's include at the subdomain it scanned; the record is the apex's.
  spf(
    'test_spf_subdomain_inherits_takeover',
    'SPF include unregistered at www, MEDIUM',
    25,
    ['v=spf1 include:worse.dns -all'],
    {
      scanned: 'www',
      unregistered: ['s25-worse.com'],
      ours: [{ subdomain: 's25.test', recordType: 'TXT', target: 's25-worse.com', status: 'claimable' }],
    },
  ),
  spf(
    'test_spf_restricted_tld_no_whois_finding',
    'SPF include expired (the include is not under .gov)',
    26,
    ['v=spf1 include:worse.dns -all'],
    {
      rdap: [['s26-worse.com', PAST]],
      ours: [{ subdomain: 's26.test', recordType: 'TXT', target: 's26-worse.com', status: 'likely' }],
    },
  ),
  spf(
    'test_spf_self_referential_include_skipped',
    'no registration lookup for the domain itself',
    27,
    ['v=spf1 include:_ip4spf.s27.test -all'],
    {
      also: (_result, fixtures) => {
        if (fixtures.api.requests.some((r) => r.includes('s27.test')))
          throw new Error('RDAP asked about the scanned domain');
      },
    },
  ),
  spf(
    'test_spf_self_referential_subdomain_include_skipped',
    'own include skipped, the other one looked up',
    28,
    ['v=spf1 include:_ip4spf.s28.test include:spf.otherdomain.com -all'],
    {
      scanned: 'www.cbi.nhtsa',
      also: (_result, fixtures) => {
        if (fixtures.api.requests.some((r) => r.includes('s28.test')))
          throw new Error('RDAP asked about the scanned domain');
        if (!fixtures.api.requests.some((r) => r.endsWith('/domain/otherdomain.com')))
          throw new Error('include not looked up');
      },
    },
  ),
]);
