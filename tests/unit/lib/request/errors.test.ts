import { describe, expect, it } from 'vitest';
import { errorFromResponse, providerWords, toRequestError } from '../../../../src/lib/request/errors.ts';

const refusal = (body: unknown) => errorFromResponse(400, 'Bad Request', body, new Headers());

describe('the request error of a refused connection', () => {
  it("keeps the server's sentence as the message and the provider's own words apart", () => {
    const error = refusal({
      error: 'AWS did not accept the credential',
      code: 'CLOUD_REFUSED',
      statusCode: 400,
      details: [
        { path: 'provider', message: 'DescribeRegions: SignatureDoesNotMatch: The request signature…' },
      ],
    });
    expect(error.message).toBe('AWS did not accept the credential');
    expect(providerWords(error)).toBe('DescribeRegions: SignatureDoesNotMatch: The request signature…');
  });

  it('has no provider words where the server gave none, or gave only field details', () => {
    expect(
      providerWords(refusal({ error: 'label: too long', details: [{ path: 'label', message: 'too long' }] })),
    ).toBe(null);
    expect(providerWords(refusal({ error: 'nope' }))).toBe(null);
    expect(providerWords(toRequestError(new Error('offline')))).toBe(null);
    expect(providerWords('not an error')).toBe(null);
  });
});
