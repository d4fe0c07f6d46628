import { describe, expect, it } from 'vitest';
import { credentialSchemas } from '../../../src/connectors/dns/provider.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { parseInput } from '../../../src/core/validation.ts';
import { createApiKeySchema } from '../../../src/model/schemas.ts';

function refusal(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('parseInput accepted the input');
}

describe('parseInput says what is wrong in words', () => {
  it.each([
    [
      credentialSchemas.cloudflare,
      { apiToken: 'x'.repeat(5000) },
      'The API token is too long: at most 4,096 characters',
    ],
    [credentialSchemas.cloudflare, {}, 'The API token is required'],
    [createApiKeySchema, { name: 'x'.repeat(101) }, 'The name is too long: at most 100 characters'],
    [createApiKeySchema, { name: 'ci\u0000' }, 'The name must not hold control characters'],
    [createApiKeySchema, { name: '   ' }, 'Give the key a name'],
  ])('%#: %s', (schema, input, message) => {
    const error = refusal(() => parseInput(schema, input));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toBe(message);
  });

  it('regression: never a schema path or zod\'s own words ("apiToken: Too big…")', () => {
    const error = refusal(() =>
      parseInput(credentialSchemas.route53, { accessKeyId: 'AKIA', secretAccessKey: 'y'.repeat(5000) }),
    );
    expect(error.message).not.toMatch(/secretAccessKey|Too big|<=/);
    // The path stays, for programs, in the details.
    expect(error.details?.[0]?.path).toBe('secretAccessKey');
  });

  it('regression: a token with a character beyond ASCII says tokens are plain ASCII', () => {
    for (const token of ['cf-token-\u201cabc\u201d', 'cf\u00a0token', 'café-token']) {
      const error = refusal(() => parseInput(credentialSchemas.cloudflare, { apiToken: token }));
      expect(error.message).toMatch(/^The API token is not plain ASCII: tokens are plain ASCII/);
    }
  });
});
