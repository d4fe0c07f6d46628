import { expect } from 'vitest';
import { ConnectorError } from '../../src/connectors/http/error.ts';
import type { TicketItem } from '../../src/connectors/tracker/tracker.ts';

/** One finding as the trackers get it. */
export const item = (key: string): TicketItem => ({
  key,
  title: 'Dangling CNAME record: old.acme.com → gone.herokuapp.com (Heroku)',
  body: 'The app is gone.',
  status: 'claimable',
  subdomain: 'old.acme.com',
  domain: 'acme.com',
  service: 'Heroku',
  target: 'gone.herokuapp.com',
  link: `https://danglewatch.example.net/dashboard?finding=${key}`,
});

/** The error a call ended with, which must be a ConnectorError. */
export async function refusal(promise: Promise<unknown>): Promise<ConnectorError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectorError);
  return error as ConnectorError;
}
