/**
 * BadDNS's DMARC module (tests/dmarc_test.py), restated in our data. Its findings are policy
 * posture (INFO: p=none, sp=none, pct below 100, no rua, no record), not dangling records: we
 * report none of them (src/scanner/README.md, "Peer cases"). What we do report of a DMARC record,
 * a report address at an unregistered domain, is tested in mail-policy.test.ts and spf.test.ts here.
 */
import { type PeerCase, peerSuite } from './harness.ts';

const T = 'tests/dmarc_test.py::';

/** A case whose DMARC record (at `_dmarc.<where>`) BadDNS judges on policy alone. */
function policy(
  fn: string,
  theirs: string,
  n: number,
  record: string | undefined,
  scanned?: string,
): PeerCase {
  const apex = `d${String(n).padStart(2, '0')}.test`;
  return {
    from: `${T}${fn}`,
    theirs,
    apex,
    given: scanned ? [`${scanned}.${apex}`] : [],
    records: [
      ...(scanned ? ([[`${scanned}.${apex}`, { type: 'A', data: '127.0.0.1' }]] as PeerCase['records']) : []),
      ...(record
        ? ([
            [`_dmarc.${apex}`, { type: 'TXT', data: record.replaceAll('bad.com', apex) }],
          ] as PeerCase['records'])
        : []),
    ],
    ours: [],
  };
}

peerSuite('BadDNS dmarc module', [
  policy('test_dmarc_no_txt_records', 'INFO: No DMARC record', 1, undefined),
  policy('test_dmarc_txt_exists_but_no_dmarc', 'INFO: No DMARC record', 2, 'v=spf1 include:example.com ~all'),
  policy('test_dmarc_p_none', 'INFO: p=none', 3, 'v=DMARC1; p=none; rua=mailto:dmarc@bad.com'),
  policy('test_dmarc_sp_none', 'INFO: sp=none', 4, 'v=DMARC1; p=reject; sp=none; rua=mailto:dmarc@bad.com'),
  policy(
    'test_dmarc_pct_less_than_100',
    'INFO: pct=50',
    5,
    'v=DMARC1; p=reject; pct=50; rua=mailto:dmarc@bad.com',
  ),
  policy('test_dmarc_no_rua', 'INFO: No rua tag', 6, 'v=DMARC1; p=reject'),
  policy('test_dmarc_fully_compliant', 'no finding', 7, 'v=DMARC1; p=reject; rua=mailto:dmarc@bad.com'),
  policy('test_dmarc_multiple_findings_p_none_no_rua', 'INFO: p=none, No rua tag', 8, 'v=DMARC1; p=none'),
  policy('test_dmarc_all_four_issues', 'INFO: four policy findings', 9, 'v=DMARC1; p=none; sp=none; pct=25'),
  policy(
    'test_dmarc_pct_100_no_finding',
    'no finding',
    10,
    'v=DMARC1; p=reject; pct=100; rua=mailto:dmarc@bad.com',
  ),
  policy(
    'test_dmarc_p_quarantine_no_p_none_finding',
    'no p=none finding',
    11,
    'v=DMARC1; p=quarantine; rua=mailto:dmarc@bad.com',
  ),
  policy(
    'test_dmarc_absent_sp_no_finding',
    'no sp=none finding',
    12,
    'v=DMARC1; p=reject; rua=mailto:dmarc@bad.com',
  ),
  policy('test_dmarc_case_insensitivity', 'INFO: p=none', 13, 'V=DMARC1; P=None; RUA=mailto:dmarc@bad.com'),
  policy(
    'test_dmarc_invalid_pct_no_crash',
    'no pct finding, no crash',
    14,
    'v=DMARC1; p=reject; pct=abc; rua=mailto:dmarc@bad.com',
  ),
  policy(
    'test_dmarc_subdomain_inherits_reject',
    'no finding',
    15,
    'v=DMARC1; p=reject; rua=mailto:dmarc@bad.com',
    'sub',
  ),
  policy(
    'test_dmarc_subdomain_inherits_sp_none',
    'INFO: Inherited policy: none',
    16,
    'v=DMARC1; p=reject; sp=none; rua=mailto:dmarc@bad.com',
    'sub',
  ),
  policy(
    'test_dmarc_subdomain_inherits_p_none',
    'INFO: Inherited policy: none',
    17,
    'v=DMARC1; p=none; rua=mailto:dmarc@bad.com',
    'sub',
  ),
  policy('test_dmarc_subdomain_no_org_record', 'INFO: No DMARC record', 18, undefined, 'sub'),
  {
    from: `${T}test_dmarc_subdomain_own_record_overrides`,
    theirs: 'INFO: p=none (the subdomain own record)',
    apex: 'd19.test',
    given: ['sub.d19.test'],
    records: [
      ['sub.d19.test', { type: 'A', data: '127.0.0.1' }],
      ['_dmarc.sub.d19.test', { type: 'TXT', data: 'v=DMARC1; p=none; rua=mailto:dmarc@d19.test' }],
      ['_dmarc.d19.test', { type: 'TXT', data: 'v=DMARC1; p=reject; rua=mailto:dmarc@d19.test' }],
    ],
    ours: [],
  },
  policy(
    'test_dmarc_subdomain_inherits_sp_quarantine',
    'no finding',
    20,
    'v=DMARC1; p=reject; sp=quarantine; rua=mailto:dmarc@bad.com',
    'sub',
  ),
  policy(
    'test_dmarc_subdomain_inherits_low_pct',
    'INFO: pct=25',
    21,
    'v=DMARC1; p=reject; pct=25; rua=mailto:dmarc@bad.com',
    'sub',
  ),
  policy(
    'test_dmarc_deep_subdomain_inherits',
    'no finding',
    22,
    'v=DMARC1; p=reject; rua=mailto:dmarc@bad.com',
    'a.b.c',
  ),
  policy(
    'test_dmarc_subdomain_inherited_invalid_pct',
    'no pct finding, no crash',
    23,
    'v=DMARC1; p=reject; pct=abc; rua=mailto:dmarc@bad.com',
    'sub',
  ),
]);
