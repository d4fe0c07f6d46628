import { describe, expect, it } from 'vitest';
import {
  addDomainErrorMessage,
  scanErrorMessage,
  scanRefusalTitle,
  verifyErrorMessage,
} from '../../../../src/lib/dashboard/messages.ts';
import { RequestError } from '../../../../src/lib/request/errors.ts';

const api = (message: string, statusCode: number) =>
  new RequestError(message, { type: 'API_ERROR', statusCode, retryable: statusCode >= 500 });

describe("'Failed to Add Domain' messages", () => {
  it("shows the server's words for what it refused on purpose", () => {
    expect(addDomainErrorMessage(api('example.com is already monitored', 409))).toBe(
      'example.com is already monitored',
    );
    expect(
      addDomainErrorMessage(api('Free tier is limited to your email domain (a.io) and its subdomains', 400)),
    ).toBe('Free tier is limited to your email domain (a.io) and its subdomains');
  });

  it('reads a 403 as the plan limit', () => {
    const denied = new RequestError('Access denied', { type: 'AUTHORIZATION', statusCode: 403 });
    expect(addDomainErrorMessage(denied, 1)).toBe(
      "You've reached the maximum of 1 domain for your current plan",
    );
    expect(addDomainErrorMessage(denied)).toBe(
      'You have reached your domain or quota limit. Consider upgrading your plan.',
    );
  });

  it('maps other failures by their text', () => {
    expect(addDomainErrorMessage(new RequestError('Network request failed', { type: 'NETWORK' }))).toBe(
      'Network error. Please check your internet connection and try again.',
    );
    expect(addDomainErrorMessage(new RequestError('Request timeout', { type: 'NETWORK' }))).toBe(
      'Request timeout. The service may be experiencing high load. Please try again.',
    );
    expect(
      addDomainErrorMessage(new RequestError('Authentication required', { type: 'AUTHENTICATION' })),
    ).toBe('Authentication error. Please refresh the page and try again.');
    expect(addDomainErrorMessage(api('HTTP 500: Internal Server Error', 500))).toBe('Failed to add domain');
  });
});

describe('verification and scan messages', () => {
  it('tells a service failure from a refusal', () => {
    expect(verifyErrorMessage(api('boom', 503))).toBe(
      'DNS verification service is temporarily unavailable. Please try again in a few minutes.',
    );
    expect(verifyErrorMessage(new RequestError('Network request failed', { type: 'NETWORK' }))).toBe(
      'DNS verification service is temporarily unavailable. Please try again in a few minutes.',
    );
    expect(verifyErrorMessage(api('Domain not found', 404))).toBe('Domain not found');
    expect(verifyErrorMessage(new Error('??'))).toBe(
      'Verification failed due to a service error. Please try again later or contact support if the issue persists.',
    );
  });

  it("gives the 'Scan Failed' toast the server's words, or 'Failed to start scan'", () => {
    expect(scanErrorMessage(api('A scan of example.com is already running', 409))).toBe(
      'A scan of example.com is already running',
    );
    expect(scanErrorMessage(null)).toBe('Failed to start scan');
  });

  it("regression: a scan the plan refuses is not a 'Scan Failed', and a 403 keeps the server's words", () => {
    const quota = new RequestError('You have used the 1 scan of the Free plan for today.', {
      type: 'API_ERROR',
      code: 'QUOTA_EXCEEDED',
      statusCode: 409,
    });
    expect(scanRefusalTitle(quota)).toBe('Daily Scans Used');
    const beyond = new RequestError('Access denied', {
      type: 'AUTHORIZATION',
      code: 'PLAN_LIMIT',
      statusCode: 403,
      context: { serverMessage: "Not scanned: this domain is beyond your plan's number of domains." },
    });
    expect(scanRefusalTitle(beyond)).toBe('Beyond Your Plan');
    expect(scanErrorMessage(beyond)).toBe(
      "Not scanned: this domain is beyond your plan's number of domains.",
    );
    // A failure stays one: the spec's 'Scan Failed'.
    expect(scanRefusalTitle(api('Something went wrong on our side', 500))).toBeUndefined();
    expect(scanRefusalTitle(new Error('boom'))).toBeUndefined();
  });
});
