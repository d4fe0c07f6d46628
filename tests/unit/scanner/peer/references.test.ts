/**
 * BadDNS's references module (tests/references_test.py, the references cases of
 * tests/modules_coverage_test.py), restated in our data: a live page of the zone names outside
 * hosts (scripts, stylesheets, its Content-Security-Policy, its Access-Control-Allow-Origin), and
 * one anyone can claim is a second-order takeover of the page. Skipped cases: src/scanner/README.md,
 * "Peer cases".
 */
import { FIXTURE_IP, peerSuite } from './harness.ts';

const T = 'tests/references_test.py::';
const M = 'tests/modules_coverage_test.py::';

const page = (head: string, body = '<h1>Hello, World!</h1>') => ({
  status: 200,
  body: `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Test Page</title>${head}</head><body>${body}</body></html>`,
});

peerSuite('BadDNS references module', [
  {
    from: `${T}test_references_cname_css`,
    theirs: 'stylesheet from an unregistered domain, MEDIUM',
    apex: 'r01.test',
    given: ['bad.r01.test'],
    records: [['bad.r01.test', { type: 'A', data: FIXTURE_IP }]],
    pages: [['bad.r01.test', page('<link rel="stylesheet" href="http://css.r01-baddnscdn.com/style.css">')]],
    unregistered: ['r01-baddnscdn.com'],
    ours: [{ subdomain: 'bad.r01.test', target: 'css.r01-baddnscdn.com', status: 'claimable' }],
  },
  {
    from: `${T}test_references_cname_js`,
    theirs: 'script from an unregistered domain, MEDIUM',
    apex: 'r02.test',
    given: ['bad.r02.test'],
    records: [['bad.r02.test', { type: 'A', data: FIXTURE_IP }]],
    pages: [['bad.r02.test', page('', '<script src="http://js.r02-baddnscdn.com/script.js"></script>')]],
    unregistered: ['r02-baddnscdn.com'],
    ours: [{ subdomain: 'bad.r02.test', target: 'js.r02-baddnscdn.com', status: 'claimable' }],
  },
  {
    from: `${T}test_references_direct_js`,
    theirs: 'script from a missing Azure name, MEDIUM',
    apex: 'r03.test',
    given: ['bad.r03.test'],
    records: [['bad.r03.test', { type: 'A', data: FIXTURE_IP }]],
    pages: [
      ['bad.r03.test', page('', '<script src="http://r03-direct.azurewebsites.net/script.js"></script>')],
    ],
    ours: [{ subdomain: 'bad.r03.test', target: 'r03-direct.azurewebsites.net', status: 'claimable' }],
  },
  {
    from: `${T}test_references_direct_css`,
    theirs: 'stylesheet from a missing Azure name, MEDIUM',
    apex: 'r04.test',
    given: ['bad.r04.test'],
    records: [['bad.r04.test', { type: 'A', data: FIXTURE_IP }]],
    // The page answers over HTTP only: HTTPS resets, and the page is read over HTTP instead.
    pages: [
      ['bad.r04.test', page('<link rel="stylesheet" href="http://r04-direct.azurewebsites.net/style.css">')],
    ],
    webFaults: [['https:bad.r04.test', 'reset']],
    ours: [{ subdomain: 'bad.r04.test', target: 'r04-direct.azurewebsites.net', status: 'claimable' }],
  },
  {
    from: `${T}test_references_direct_csp`,
    theirs: 'two CSP hosts, missing Azure names, MEDIUM each',
    apex: 'r05.test',
    given: ['bad.r05.test'],
    records: [['bad.r05.test', { type: 'A', data: FIXTURE_IP }]],
    pages: [
      [
        'bad.r05.test',
        {
          status: 200,
          body: 'OK',
          headers: {
            'content-security-policy':
              "default-src 'self'; script-src 'self' r05-direct.azurewebsites.net http://r05-direct2.azurewebsites.net; img-src 'self' r05-direct.azurewebsites.net; connect-src 'self' r05-direct.azurewebsites.net http://r05-direct2.azurewebsites.net;",
            'x-frame-options': 'DENY',
          },
        },
      ],
    ],
    ours: [
      {
        subdomain: 'bad.r05.test',
        target: 'r05-direct.azurewebsites.net',
        status: 'claimable',
        evidence: 'Content-Security-Policy script-src',
      },
      { subdomain: 'bad.r05.test', target: 'r05-direct2.azurewebsites.net', status: 'claimable' },
    ],
  },
  {
    from: `${T}test_references_direct_cors`,
    theirs: 'CORS origin at a missing Azure name, MEDIUM',
    apex: 'r06.test',
    given: ['bad.r06.test'],
    records: [['bad.r06.test', { type: 'A', data: FIXTURE_IP }]],
    pages: [
      [
        'bad.r06.test',
        {
          status: 200,
          body: 'OK',
          headers: { 'access-control-allow-origin': 'https://r06-direct.azurewebsites.net' },
        },
      ],
    ],
    ours: [
      {
        subdomain: 'bad.r06.test',
        target: 'r06-direct.azurewebsites.net',
        status: 'claimable',
        evidence: 'Access-Control-Allow-Origin',
      },
    ],
  },
  {
    from: `${M}test_references_self_domain_ignored`,
    theirs: 'no finding for a script of the page’s own host',
    apex: 'r07.test',
    given: ['bad.r07.test'],
    records: [['bad.r07.test', { type: 'A', data: FIXTURE_IP }]],
    pages: [['bad.r07.test', page('', '<script src="https://bad.r07.test/script.js"></script>')]],
    ours: [],
  },
  {
    from: `${M}test_references_relative_url_skipped`,
    theirs: 'no finding for a relative script',
    apex: 'r08.test',
    given: ['bad.r08.test'],
    records: [['bad.r08.test', { type: 'A', data: FIXTURE_IP }]],
    pages: [['bad.r08.test', page('', '<script src="/relative/path.js"></script>')]],
    ours: [],
  },
  {
    from: `${M}test_references_duplicate_header_domain`,
    theirs: 'a CSP host named twice is checked once (no finding asserted)',
    apex: 'r09.test',
    given: ['bad.r09.test'],
    records: [
      ['bad.r09.test', { type: 'A', data: FIXTURE_IP }],
      ['r09-evil.com', { type: 'A', data: FIXTURE_IP }],
    ],
    pages: [
      [
        'bad.r09.test',
        {
          status: 200,
          body: '<html>body</html>',
          headers: { 'content-security-policy': 'default-src https://r09-evil.com https://r09-evil.com' },
        },
      ],
    ],
    ours: [],
  },
]);
