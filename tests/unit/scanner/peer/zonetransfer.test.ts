/**
 * BadDNS's zonetransfer module (tests/zonetransfer_test.py, tests/zonetransfer_extended_test.py),
 * restated in our data. BadDNS makes the transfer fail by patching its library (timeouts, resets,
 * refusals, truncated or malformed messages); here the zone's own nameserver (the delegated
 * nameserver fixture) really does each of these. A broken transfer is never a finding, and never
 * the end of the scan: it is the check's error. Disagreement (we call an open transfer `likely`,
 * BadDNS INFO): src/scanner/README.md, "Peer cases".
 */
import { expect } from 'vitest';
import type { ScanResult } from '../../../../src/scanner/types.ts';
import { FIXTURE_IP, type PeerCase, peerSuite } from './harness.ts';

const T = 'tests/zonetransfer_test.py::';
const X = 'tests/zonetransfer_extended_test.py::';

const faultReported = (pattern: RegExp) => (result: ScanResult) => {
  expect(result.errors.some((e) => e.stage === 'detect' && pattern.test(e.message))).toBe(true);
};

/** A zone whose nameserver answers the transfer as `axfr` says. */
function zone(
  from: string,
  theirs: string,
  n: number,
  axfr: PeerCase['axfr'] | undefined,
  extra: Partial<PeerCase> = {},
): PeerCase {
  const apex = `z${String(n).padStart(2, '0')}.test`;
  return {
    from,
    theirs,
    apex,
    records: [
      [`asdf.${apex}`, { type: 'A', data: FIXTURE_IP }],
      [`zzzz.${apex}`, { type: 'AAAA', data: '::1' }],
    ],
    axfr: axfr && { ...axfr, zone: apex },
    ours: [],
    ...extra,
  };
}

peerSuite('BadDNS zonetransfer module', [
  zone(
    `${T}test_zonetransfer_discovery`,
    'Successful Zone Transfer, INFO',
    1,
    { zone: '' },
    {
      ours: [
        {
          subdomain: 'z01.test',
          recordType: 'NS',
          target: 'ns1.z01.test',
          status: 'likely',
          evidence: 'SOA to SOA',
        },
      ],
    },
  ),
  zone(
    `${X}test_zonetransfer_timeout`,
    'no finding (the transfer times out)',
    2,
    { zone: '', fault: 'stall' },
    {
      also: faultReported(/z02\.test.*sent nothing/),
    },
  ),
  zone(
    `${X}test_zonetransfer_connection_reset`,
    'no finding (the connection is reset)',
    3,
    { zone: '', fault: 'reset' },
    {
      also: faultReported(/z03\.test.*(broke the connection|closed the connection)/),
    },
  ),
  zone(`${X}test_zonetransfer_transfer_error`, 'no finding (REFUSED)', 4, undefined, {
    also: (result) => expect(result.errors.filter((e) => /zone transfer/.test(e.message))).toEqual([]),
  }),
  zone(
    `${X}test_zonetransfer_eof_error`,
    'no finding (the server closes before the end)',
    5,
    { zone: '', fault: 'close' },
    {
      also: faultReported(/z05\.test.*closed the connection before the end/),
    },
  ),
  zone(
    `${X}test_zonetransfer_form_error`,
    'no finding (a malformed message)',
    6,
    { zone: '', fault: 'garbage' },
    {
      also: faultReported(/z06\.test.*malformed/),
    },
  ),
  zone(
    `${X}test_zonetransfer_dns_timeout`,
    'no finding (no answer at all)',
    7,
    { zone: '', fault: 'silent' },
    {
      also: faultReported(/z07\.test.*sent nothing/),
    },
  ),
  zone(
    `${X}test_zonetransfer_unknown_error`,
    'no finding (any other failure)',
    8,
    { zone: '', fault: 'reset' },
    {
      also: faultReported(/z08\.test/),
    },
  ),
  {
    from: `${X}test_zonetransfer_no_ns_records`,
    theirs: 'no finding without NS records',
    apex: 'z09.test',
    bareApex: true,
    records: [['z09.test', { type: 'A', data: FIXTURE_IP }]],
    ours: [],
  },
  {
    from: `${X}test_zonetransfer_no_ns_ip`,
    theirs: 'no finding when the nameserver has no address',
    apex: 'z10.test',
    bareApex: true,
    records: [
      ['z10.test', { type: 'NS', data: 'ns1.z10.test' }],
      ['z10.test', { type: 'A', data: FIXTURE_IP }],
    ],
    ours: [],
  },
  zone(
    `${X}test_zonetransfer_empty_findings`,
    'no finding (reset)',
    11,
    { zone: '', fault: 'reset' },
    {
      also: faultReported(/z11\.test/),
    },
  ),
]);
