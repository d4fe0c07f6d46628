/**
 * BadDNS's CNAME module (tests/cname_test.py, the CNAME cases of tests/modules_coverage_test.py),
 * restated in our data. Skipped cases and disagreements: src/scanner/README.md, "Peer cases".
 */
import { CATALOGUE_SOURCES, catalogue } from '../../../../src/scanner/fingerprints/catalogue.ts';
import { type Entry, entrySchema } from '../../../../src/scanner/fingerprints/schema.ts';
import { FIXTURE_IP, peerSuite } from './harness.ts';

const T = 'tests/cname_test.py::';
const M = 'tests/modules_coverage_test.py::';
const PAST = {
  events: [{ eventAction: 'expiration', eventDate: '2023-02-25T15:56:10Z' }],
  status: ['client transfer prohibited'],
};
const LOVABLE_PAGE = {
  status: 404,
  body: '<html><body>Publish or update your Lovable project for it to appear here.</body></html>',
};

/**
 * BadDNS's `not_cnames` and IP-signature cases load invented signatures; ours give the scan a
 * catalogue with an invented service added: its CNAME patterns (a host of its own domain taken out
 * by `notCname`) or its address, and a page or a missing name as its evidence.
 */
function inventedService(
  id: string,
  target: { cname?: string[]; notCname?: string[]; ips?: string[] },
  evidence: { dns: 'resolves'; body: string } | { dns: 'nxdomain' },
  from: string,
): Entry {
  return entrySchema.parse({
    id,
    service: `${id} test service`,
    ...target,
    dns: evidence.dns,
    ...(evidence.dns === 'resolves' ? { http: { body: [evidence.body] } } : {}),
    negative: {},
    status: 'vulnerable',
    reviewed: '2026-11-27',
    reason: `the service of BadDNS's ${from}, restated`,
    resource: 'bucket',
    explanation: 'This name points at a bucket of the test service that does not exist.',
    proofOfConcept: 'Create the bucket at the test service and serve a page from it.',
    remediation: 'Remove the record, or create the bucket it points at.',
    sources: [
      { url: `https://github.com/blacklanternsecurity/baddns/blob/373abc9/${from}`, date: '2026-03-22' },
    ],
  });
}
const withService = (entry: Entry) => ({
  fingerprints: { sources: CATALOGUE_SOURCES, entries: [...catalogue, entry] },
});
const notCnames = (domain: string, evidence: Parameters<typeof inventedService>[2]) =>
  withService(
    inventedService(
      'not-cnames',
      { cname: [domain], notCname: [`excluded.${domain}`] },
      evidence,
      'tests/cname_test.py',
    ),
  );
const NOT_CNAMES_WEB = notCnames('c-notcname-web.com', { dns: 'resolves', body: 'Bucket does not exist' });
const NOT_CNAMES_NX = notCnames('c-notcname-nx.com', { dns: 'nxdomain' });
const BUCKET_PAGE = { status: 200, body: 'Bucket does not exist' };

peerSuite('BadDNS cname module', [
  {
    from: `${T}test_cname_dnsnxdomain_azure_match`,
    theirs: 'Azure signature, NXDOMAIN, MEDIUM',
    apex: 'c01.test',
    given: ['bad.c01.test'],
    records: [['bad.c01.test', { type: 'CNAME', data: 'c01-bad.azurewebsites.net' }]],
    ours: [{ subdomain: 'bad.c01.test', target: 'c01-bad.azurewebsites.net', status: 'claimable' }],
  },
  {
    from: `${T}test_cname_dnsnxdomain_generic`,
    theirs: 'GENERIC dangling CNAME, MEDIUM',
    apex: 'c02.test',
    given: ['bad.c02.test'],
    records: [
      ['bad.c02.test', { type: 'CNAME', data: 'baddns.c02-random.net' }],
      ['c02-random.net', { type: 'NS', data: 'ns.c02-random.net' }],
    ],
    ours: [{ subdomain: 'bad.c02.test', target: 'baddns.c02-random.net', status: 'review' }],
  },
  {
    from: `${T}test_cname_dnsnxdomain_negative_signature_imperva`,
    theirs: 'no finding (negative signature)',
    apex: 'c03.test',
    given: ['bad.c03.test'],
    records: [['bad.c03.test', { type: 'CNAME', data: '7mkvokl.ng.impervadns.net' }]],
    ours: [],
  },
  {
    from: `${T}test_cname_dnsnxdomain_negative_signature_incapdns`,
    theirs: 'no finding (negative signature)',
    apex: 'c04.test',
    given: ['bad.c04.test'],
    records: [['bad.c04.test', { type: 'CNAME', data: '59ygw.x.incapdns.net' }]],
    ours: [],
  },
  {
    from: `${T}test_cname_dnsnxdomain_positive_with_negative_loaded`,
    theirs: 'Azure signature still fires with negative signatures loaded',
    apex: 'c05.test',
    given: ['bad.c05.test'],
    records: [['bad.c05.test', { type: 'CNAME', data: 'c05-bad.azurewebsites.net' }]],
    ours: [{ subdomain: 'bad.c05.test', status: 'claimable' }],
  },
  {
    from: `${T}test_cname_dnsnxdomain_generic_with_negative_loaded`,
    theirs: 'GENERIC dangling CNAME, MEDIUM',
    apex: 'c06.test',
    given: ['bad.c06.test'],
    records: [
      ['bad.c06.test', { type: 'CNAME', data: 'baddns.c06-random.net' }],
      ['c06-random.net', { type: 'NS', data: 'ns.c06-random.net' }],
    ],
    ours: [{ subdomain: 'bad.c06.test', target: 'baddns.c06-random.net', status: 'review' }],
  },
  {
    from: `${T}test_cname_dnsnxdomain_generic_negative`,
    theirs: 'no finding (target under a TLD that does not exist)',
    apex: 'c07.test',
    given: ['bad.c07.test'],
    records: [['bad.c07.test', { type: 'CNAME', data: 'baddns.somerandomthing.dns' }]],
    ours: [],
  },
  {
    from: `${T}test_cname_dnsnxdomain_azure_negative`,
    theirs: 'no finding (the Azure name resolves)',
    apex: 'c08.test',
    given: ['bad.c08.test'],
    records: [
      ['bad.c08.test', { type: 'CNAME', data: 'c08-bad.azurewebsites.net' }],
      ['c08-bad.azurewebsites.net', { type: 'A', data: FIXTURE_IP }],
    ],
    ours: [],
  },
  {
    from: `${T}test_cname_http_bigcartel_match`,
    theirs: 'Bigcartel signature, HTTP match, MEDIUM',
    apex: 'c09.test',
    given: ['bad.c09.test'],
    records: [
      ['bad.c09.test', { type: 'CNAME', data: 'c09.bigcartel.com' }],
      ['c09.bigcartel.com', { type: 'A', data: FIXTURE_IP }],
    ],
    pages: [['bad.c09.test', { status: 200, body: '<h1>Oops! We couldn&#8217;t find that page.</h1>' }]],
    ours: [{ subdomain: 'bad.c09.test', target: 'c09.bigcartel.com', status: 'likely' }],
  },
  {
    from: `${T}test_cname_http_bigcartel_negative`,
    theirs: 'GENERIC dangling CNAME (NXDOMAIN under bigcartel.com), MEDIUM',
    apex: 'c10.test',
    given: ['bad.c10.test'],
    records: [['bad.c10.test', { type: 'CNAME', data: 'c10.bigcartel.com' }]],
    ours: [{ subdomain: 'bad.c10.test', target: 'c10.bigcartel.com', status: 'review' }],
  },
  {
    from: `${T}test_cname_chainedcname_nxdomain`,
    theirs: 'Azure signature through a two-hop chain, MEDIUM',
    apex: 'c11.test',
    given: ['chain.c11.test'],
    records: [
      ['chain.c11.test', { type: 'CNAME', data: 'chain2.c11.test' }],
      ['chain2.c11.test', { type: 'CNAME', data: 'c11-bad.azurewebsites.net' }],
    ],
    // The in-zone hop is a name of the zone too, and dangles the same way.
    ours: [
      { subdomain: 'chain.c11.test', target: 'c11-bad.azurewebsites.net', status: 'claimable' },
      { subdomain: 'chain2.c11.test', target: 'c11-bad.azurewebsites.net', status: 'claimable' },
    ],
  },
  {
    from: `${T}test_cname_whois_expired`,
    theirs: 'CNAME Registration Expired, MEDIUM',
    apex: 'c12.test',
    given: ['bad.c12.test'],
    records: [['bad.c12.test', { type: 'CNAME', data: 'c12-worse.com' }]],
    rdap: [['c12-worse.com', PAST]],
    ours: [{ subdomain: 'bad.c12.test', target: 'c12-worse.com', status: 'likely', evidence: 'expired' }],
  },
  {
    from: `${T}test_cname_whois_unregistered_match`,
    theirs: 'CNAME unregistered (the name still resolves), MEDIUM',
    apex: 'c13.test',
    given: ['bad.c13.test'],
    records: [
      ['bad.c13.test', { type: 'CNAME', data: 'c13-worse.com' }],
      ['c13-worse.com', { type: 'A', data: '127.0.0.2' }],
    ],
    unregistered: ['c13-worse.com'],
    ours: [
      { subdomain: 'bad.c13.test', target: 'c13-worse.com', status: 'claimable', evidence: 'not registered' },
    ],
  },
  {
    from: `${T}test_cname_whois_unregistered_baddata`,
    theirs: 'no crash on an expiry date in an odd format',
    apex: 'c14.test',
    given: ['bad.c14.test'],
    records: [
      ['bad.c14.test', { type: 'CNAME', data: 'c14-worse.com' }],
      ['c14-worse.com', { type: 'A', data: '127.0.0.2' }],
    ],
    rdap: [['c14-worse.com', { events: [{ eventAction: 'expiration', eventDate: 'sometime in July' }] }]],
    ours: [],
  },
  {
    from: `${T}test_cname_whois_unregistered_missingdata`,
    theirs: 'no crash on a registration without an expiry date',
    apex: 'c15.test',
    given: ['bad.c15.test'],
    records: [
      ['bad.c15.test', { type: 'CNAME', data: 'c15-worse.com' }],
      ['c15-worse.com', { type: 'A', data: '127.0.0.2' }],
    ],
    rdap: [['c15-worse.com', { status: ['active'] }]],
    ours: [],
  },
  {
    from: `${T}test_cname_http_lovable_match`,
    theirs: 'Lovable signature, HTTP 404 and body, MEDIUM',
    apex: 'c16.test',
    given: ['bad.c16.test'],
    records: [
      ['bad.c16.test', { type: 'CNAME', data: 'c16.lovable.app' }],
      ['c16.lovable.app', { type: 'A', data: FIXTURE_IP }],
    ],
    pages: [['bad.c16.test', LOVABLE_PAGE]],
    ours: [{ subdomain: 'bad.c16.test', target: 'c16.lovable.app', status: 'likely' }],
  },
  {
    from: `${T}test_cname_http_lovable_negative`,
    theirs: 'no finding (the project serves its site)',
    apex: 'c17.test',
    given: ['bad.c17.test'],
    records: [
      ['bad.c17.test', { type: 'CNAME', data: 'c17.lovable.app' }],
      ['c17.lovable.app', { type: 'A', data: FIXTURE_IP }],
    ],
    pages: [['bad.c17.test', { status: 200, body: '<h1>Welcome to my site</h1>' }]],
    ours: [],
  },
  {
    from: `${T}test_cname_srv_style_target_skipped`,
    theirs: 'no finding (a service-label name is not a web host)',
    apex: 'c18.test',
    given: ['bill._tcp.app.c18.test'],
    records: [['bill._tcp.app.c18.test', { type: 'CNAME', data: 'c18.vercel-dns.com' }]],
    ours: [{ subdomain: 'bill._tcp.app.c18.test', target: 'c18.vercel-dns.com', status: 'review' }],
  },
  {
    from: `${M}test_cname_no_cname_found`,
    theirs: 'no finding (an address, no CNAME)',
    apex: 'c19.test',
    given: ['bad.c19.test'],
    records: [['bad.c19.test', { type: 'A', data: FIXTURE_IP }]],
    ours: [],
  },
  {
    from: `${T}test_cname_http_not_cnames_exclusion`,
    theirs: "no finding (the CNAME is one of the signature's not_cnames)",
    apex: 'c20.test',
    given: ['bad.c20.test'],
    records: [
      ['bad.c20.test', { type: 'CNAME', data: 'excluded.c-notcname-web.com' }],
      ['excluded.c-notcname-web.com', { type: 'A', data: FIXTURE_IP }],
    ],
    pages: [['bad.c20.test', BUCKET_PAGE]],
    options: NOT_CNAMES_WEB,
    ours: [],
  },
  {
    from: `${T}test_cname_http_not_cnames_no_exclusion`,
    theirs: 'the signature fires (the CNAME is not among its not_cnames)',
    apex: 'c21.test',
    given: ['bad.c21.test'],
    records: [
      ['bad.c21.test', { type: 'CNAME', data: 'other.c-notcname-web.com' }],
      ['other.c-notcname-web.com', { type: 'A', data: FIXTURE_IP }],
    ],
    pages: [['bad.c21.test', BUCKET_PAGE]],
    options: NOT_CNAMES_WEB,
    ours: [{ subdomain: 'bad.c21.test', target: 'other.c-notcname-web.com', status: 'likely' }],
  },
  {
    from: `${T}test_cname_nxdomain_not_cnames_exclusion`,
    theirs: 'GENERIC dangling CNAME only, not the signature',
    apex: 'c22.test',
    given: ['bad.c22.test'],
    records: [['bad.c22.test', { type: 'CNAME', data: 'excluded.c-notcname-nx.com' }]],
    options: NOT_CNAMES_NX,
    ours: [{ subdomain: 'bad.c22.test', target: 'excluded.c-notcname-nx.com', status: 'review' }],
  },
  {
    from: `${T}test_cname_nxdomain_not_cnames_no_exclusion`,
    theirs: 'the NXDOMAIN signature fires (the CNAME is not among its not_cnames)',
    apex: 'c23.test',
    given: ['bad.c23.test'],
    records: [['bad.c23.test', { type: 'CNAME', data: 'other.c-notcname-nx.com' }]],
    options: NOT_CNAMES_NX,
    ours: [{ subdomain: 'bad.c23.test', target: 'other.c-notcname-nx.com', status: 'likely' }],
  },
  {
    from: `${M}test_cname_http_ip_signature_match`,
    theirs: 'the IP signature fires (the CNAME target resolves to its address)',
    apex: 'c24.test',
    given: ['bad.c24.test'],
    records: [
      ['bad.c24.test', { type: 'CNAME', data: 'baddns.c24-example.com' }],
      ['baddns.c24-example.com', { type: 'A', data: FIXTURE_IP }],
    ],
    pages: [['bad.c24.test', { status: 200, body: 'IP Matched Takeover Page' }]],
    // BadDNS's address is 10.0.0.1; tests reach loopback only, so the invented service is at the fixture's.
    options: withService(
      inventedService(
        'ip-signature',
        { ips: [FIXTURE_IP] },
        { dns: 'resolves', body: 'IP Matched Takeover Page' },
        'tests/modules_coverage_test.py',
      ),
    ),
    ours: [{ subdomain: 'bad.c24.test', target: 'baddns.c24-example.com', status: 'likely' }],
  },
]);
