import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMAIN_MESSAGES } from '../../../src/model/domain-input.ts';
import { countOf, fieldLabel, REFUSALS, scanQuotaMessage } from '../../../src/model/messages.ts';

const src = resolve(import.meta.dirname, '../../../src');

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Every code the API answers with: the second argument of each refusal the code throws or writes. */
function codesAnswered(): Map<string, string> {
  const found = new Map<string, string>();
  // The code is the refusal's second argument: the all-capitals literals just after its start.
  const refusal = /new (?:ServiceError|ScanRefused|ApiError)\(|errorBody\(/g;
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(refusal)) {
      const head = text.slice(match.index, match.index + 140);
      for (const [, code] of head.matchAll(/'([A-Z][A-Z_]{2,})'/g)) if (code) found.set(code, file);
    }
  }
  return found;
}

describe('the table of refusals', () => {
  const answered = codesAnswered();

  it('finds the refusals of the services, the routes and the app', () => {
    for (const code of [
      'QUOTA_EXCEEDED',
      'PAYLOAD_TOO_LARGE',
      'INTERNAL_ERROR',
      'TOKEN_EXPIRED',
      'INVALID_TOKEN',
    ])
      expect([...answered.keys()]).toContain(code);
  });

  it('has a title and a human message for every code the API can answer', () => {
    for (const [code, file] of answered) {
      expect(REFUSALS, `${code} (${file})`).toHaveProperty(code);
      const words = REFUSALS[code as keyof typeof REFUSALS];
      expect(words.title.length, code).toBeGreaterThan(0);
      expect(words.message.length, code).toBeGreaterThan(0);
    }
  });

  it('speaks to people: no schema path, no code, no HTTP status in any text', () => {
    for (const [code, words] of Object.entries(REFUSALS)) {
      for (const text of [words.title, words.message]) {
        expect(text, code).not.toMatch(/^[a-z][A-Za-z.]*: /);
        expect(text, code).not.toMatch(/[A-Z]+_[A-Z]+|\b[45]\d\d\b/);
      }
    }
  });

  it("keeps the specification's words", () => {
    expect(REFUSALS.AUTH_REQUIRED.message).toBe('Authentication required');
    expect(REFUSALS.ACCESS_DENIED.message).toBe('Access denied');
    expect(REFUSALS.RATE_LIMITED.message).toBe('Rate limit exceeded');
    expect(REFUSALS.SUBSCRIPTION_ACTIVE.message).toBe('Please cancel your subscription first');
  });

  it('no quota refusal is called a failure', () => {
    for (const code of ['QUOTA_EXCEEDED', 'PLAN_LIMIT', 'DOMAIN_LIMIT'] as const)
      expect(REFUSALS[code].title).not.toMatch(/fail/i);
  });
});

describe('counts in words', () => {
  it.each([
    [0, 'scan', '0 scans'],
    [1, 'scan', '1 scan'],
    [24, 'scan', '24 scans'],
    [1, 'entry', '1 entry'],
    [4096, 'character', '4,096 characters'],
  ])('%i %s → %s', (count, noun, text) => {
    expect(countOf(count, noun, noun === 'entry' ? 'entries' : undefined)).toBe(text);
  });

  it('regression: a plan of one says "1 scan" and "1 domain"', () => {
    expect(scanQuotaMessage(1, 'Free')).toBe(
      'You have used the 1 scan of the Free plan for today. The quota resets at midnight UTC; consider upgrading your plan.',
    );
    expect(scanQuotaMessage(24, 'Solo')).toContain('You have used all 24 scans of the Solo plan');
    expect(DOMAIN_MESSAGES.limit(1)).toBe("You've reached the maximum of 1 domain for your current plan");
    expect(DOMAIN_MESSAGES.limit(25)).toBe("You've reached the maximum of 25 domains for your current plan");
  });
});

describe('fieldLabel', () => {
  it.each([
    [['credentials', 'apiToken'], 'The API token'],
    [['settings', 'scanFrequency'], 'The scan frequency'],
    [['list', 1], 'The list'],
    [[], 'The request'],
  ])('%j → %s', (path, label) => {
    expect(fieldLabel(path)).toBe(label);
  });
});
