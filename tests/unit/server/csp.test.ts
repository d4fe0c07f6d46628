import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../src/server/csp.ts';
import { inlineHashes } from '../../../src/server/site.ts';

const directives = (policy: string) =>
  Object.fromEntries(
    policy.split('; ').map((d) => {
      const [name, ...values] = d.split(' ');
      return [name, values];
    }),
  );

describe('contentSecurityPolicy', () => {
  const production = directives(
    contentSecurityPolicy({
      mode: 'production',
      authDomain: 'demo.firebaseapp.com',
      scriptHashes: ['abc='],
      upgradeInsecureRequests: true,
    }),
  );

  it('allows only the sign-in hosts in production', () => {
    expect(production['default-src']).toEqual(["'self'"]);
    expect(production['script-src']).toEqual([
      "'self'",
      'https://accounts.google.com',
      'https://apis.google.com',
      "'sha256-abc='",
    ]);
    expect(production['connect-src']).toEqual(
      expect.arrayContaining([
        'https://identitytoolkit.googleapis.com',
        'https://securetoken.googleapis.com',
        'https://github.com',
        'https://api.github.com',
      ]),
    );
    expect(production['frame-src']).toEqual([
      'https://accounts.google.com',
      'https://github.com',
      'https://demo.firebaseapp.com',
    ]);
    expect(production['img-src']).toEqual(expect.arrayContaining(['blob:', 'data:']));
    expect(production['object-src']).toEqual(["'none'"]);
    expect(production['frame-ancestors']).toEqual(["'none'"]);
    expect(production['worker-src']).toEqual(["'self'", 'blob:']);
    expect(production).toHaveProperty('upgrade-insecure-requests');
  });

  it('never allows inline or eval scripts in production', () => {
    expect(production['script-src']).not.toContain("'unsafe-inline'");
    expect(production['script-src']).not.toContain("'unsafe-eval'");
  });

  it('adds inline/eval scripts and localhost connections in development', () => {
    const dev = directives(contentSecurityPolicy({ mode: 'development', upgradeInsecureRequests: false }));
    expect(dev['script-src']).toEqual(expect.arrayContaining(["'unsafe-inline'", "'unsafe-eval'"]));
    expect(dev['connect-src']).toEqual(expect.arrayContaining(['http://localhost:*', 'ws://localhost:*']));
    expect(dev).not.toHaveProperty('upgrade-insecure-requests');
  });
});

describe('inlineHashes', () => {
  it('hashes inline scripts and styles but not external scripts or JSON data blocks', () => {
    const html = `<script>alert(1)</script><script src="/a.js"></script>
      <script type="application/ld+json">{"a":1}</script><style>p{color:red}</style>`;
    expect(inlineHashes(html)).toEqual({
      // sha256("alert(1)") and sha256("p{color:red}"), base64.
      scriptHashes: ['bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='],
      styleHashes: ['p0bF+un5yUb9MBO6xRb8kPHlY2BdpHVtLiFkDrZPF64='],
    });
  });
});
