import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { findingKey, identityHash } from '../../../../src/core/findings/key.ts';

const finding = {
  subdomain: 'a.acme.com',
  recordType: 'CNAME',
  target: 'gone.herokuapp.com',
  service: 'Heroku',
};

describe("a finding's key", () => {
  it('is dw: and a hash, at most 64 characters, and the same each time', () => {
    const key = findingKey('ws-1', finding);
    expect(key).toMatch(/^dw:[0-9a-f]{40}$/);
    expect(key.length).toBeLessThanOrEqual(64);
    expect(findingKey('ws-1', { ...finding })).toBe(key);
  });

  it('is the same in another process (nothing random or per-process goes into it)', () => {
    const script = `import('${new URL('../../../../src/core/findings/key.ts', import.meta.url).pathname}').then((m) => process.stdout.write(m.findingKey('ws-1', ${JSON.stringify(finding)})))`;
    const other = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(other).toBe(findingKey('ws-1', finding));
  });

  it('differs with the workspace, the name, the record type, the target or the kind', () => {
    const key = findingKey('ws-1', finding);
    expect(findingKey('ws-2', finding)).not.toBe(key);
    expect(findingKey('ws-1', { ...finding, subdomain: 'b.acme.com' })).not.toBe(key);
    expect(findingKey('ws-1', { ...finding, recordType: 'NS' })).not.toBe(key);
    expect(findingKey('ws-1', { ...finding, target: 'other.herokuapp.com' })).not.toBe(key);
    expect(findingKey('ws-1', { ...finding, service: 'GitHub Pages' })).not.toBe(key);
  });

  it("keeps the open-findings state's identity apart from the workspace", () => {
    expect(identityHash(finding)).toMatch(/^[0-9a-f]{64}$/);
    expect(identityHash({ ...finding, target: 'x.herokuapp.com' })).not.toBe(identityHash(finding));
  });
});
