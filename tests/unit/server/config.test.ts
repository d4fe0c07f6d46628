import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(4321);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ PUBLIC_API_BASE: 'not a url' }, 'PUBLIC_API_BASE'],
  ])('names the malformed variable in %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });
});
