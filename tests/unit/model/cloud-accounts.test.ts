import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AWS_READ_POLICY,
  AWS_RIGHTS_CHECK_POLICY,
  CLOUDS,
  parseGraceHours,
} from '../../../src/model/cloud-accounts.ts';
import { CLOUD_PROVIDER_IDS } from '../../../src/model/contract.ts';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const jsonBlocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => {
  try {
    return JSON.parse(m[1] as string) as unknown;
  } catch {
    return undefined;
  }
});

describe('the clouds a workspace can connect', () => {
  it('has a connect form and an unchecked-rights text for every cloud the API takes', () => {
    expect(CLOUDS.map((c) => c.id).sort()).toEqual([...CLOUD_PROVIDER_IDS].sort());
    for (const cloud of CLOUDS) {
      expect(cloud.fields.length, cloud.id).toBeGreaterThan(0);
      expect(cloud.rightsUnchecked, cloud.id).toMatch(/\.$|:$/);
    }
  });

  it('prints in the README the very policies the settings page shows', () => {
    expect(jsonBlocks).toContainEqual(AWS_READ_POLICY);
    expect(jsonBlocks).toContainEqual(AWS_RIGHTS_CHECK_POLICY);
  });

  it('asks for reads only, and lets the key simulate nobody but itself', () => {
    const [read] = AWS_READ_POLICY.Statement;
    for (const action of read?.Action ?? []) expect(action).toMatch(/^[a-z0-9]+:(Describe|List|Get)[A-Z]/);
    const [check] = AWS_RIGHTS_CHECK_POLICY.Statement;
    expect(check?.Action).toEqual(['iam:SimulatePrincipalPolicy']);
    expect(check?.Resource).not.toContain('*');
  });
});

describe('the grace period as typed', () => {
  it('refuses a blank field with the valid range instead of reading it as 0 hours', () => {
    for (const blank of ['', '   ']) {
      expect(parseGraceHours(blank)).toEqual({
        error: 'Give the grace period: a whole number of hours from 0 to 720.',
      });
    }
  });

  it('takes whole hours from 0 to 720 and refuses the rest with the range', () => {
    expect(parseGraceHours('0')).toEqual({ hours: 0 });
    expect(parseGraceHours(' 48 ')).toEqual({ hours: 48 });
    expect(parseGraceHours('720')).toEqual({ hours: 720 });
    for (const wrong of ['721', '-1', '2.5', 'two']) {
      expect(parseGraceHours(wrong)).toEqual({
        error: 'The grace period is a whole number of hours from 0 to 720.',
      });
    }
  });
});
