import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnalyticsEvent, setAnalyticsSink } from '../../../src/lib/analytics.ts';
import {
  SIGNUP_ERROR_TOAST,
  SIGNUP_RATE_LIMITED_TOAST,
  SIGNUP_SUCCESS_TOAST,
  submitMailingSignup,
  subscribeToMailingList,
} from '../../../src/lib/mailing-client.ts';
import { $toasts, removeToast } from '../../../src/lib/toast.ts';

interface Received {
  method: string;
  url: string;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

/** A stand-in API on loopback: answers with the next queued status and records what it got. */
let server: Server;
let apiBase: string;
let received: Received[] = [];
let statuses: number[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const text = await readBody(req);
    received.push({
      method: req.method ?? '',
      url: req.url ?? '',
      contentType: req.headers['content-type'],
      body: text ? JSON.parse(text) : {},
    });
    const status = statuses.shift() ?? 201;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let events: AnalyticsEvent[] = [];
let restoreSink: () => void;
beforeEach(() => {
  received = [];
  statuses = [];
  events = [];
  removeToast();
  restoreSink = setAnalyticsSink((e) => events.push(e));
});
afterEach(() => {
  restoreSink();
  removeToast();
  vi.restoreAllMocks();
});

const now = () => new Date('2025-09-01T12:00:00.000Z');

describe('subscribeToMailingList', () => {
  it('POSTs {email, source, timestamp} as JSON to /mailing-list and reports a new sign-up', async () => {
    statuses = [201];
    await expect(subscribeToMailingList('ada@example.com', 'home', { apiBase, now })).resolves.toBe(
      'subscribed',
    );
    expect(received).toEqual([
      {
        method: 'POST',
        url: '/mailing-list',
        contentType: 'application/json',
        body: { email: 'ada@example.com', source: 'home', timestamp: '2025-09-01T12:00:00.000Z' },
      },
    ]);
  });

  it('treats any 2xx as success', async () => {
    statuses = [200];
    await expect(subscribeToMailingList('ada@example.com', 'home', { apiBase })).resolves.toBe('subscribed');
  });

  it('reports 409 as a duplicate', async () => {
    statuses = [409];
    await expect(subscribeToMailingList('ada@example.com', 'home', { apiBase })).resolves.toBe('duplicate');
  });

  it.each([400, 429, 500, 503])("throws 'Failed to subscribe: %i' on that status", async (status) => {
    statuses = [status];
    await expect(subscribeToMailingList('ada@example.com', 'home', { apiBase })).rejects.toThrow(
      `Failed to subscribe: ${status}`,
    );
  });

  it.each([
    ['', 'home'],
    [undefined, 'home'],
    ['ada@example.com', ''],
    ['ada@example.com', undefined],
    ['not-an-email', 'home'],
    ['ada@example', 'home'],
    ['ada@example.c', 'home'],
    ['a da@example.com', 'home'],
  ])('returns false without a request for email %j and source %j', async (email, source) => {
    await expect(subscribeToMailingList(email, source, { apiBase })).resolves.toBe(false);
    expect(received).toEqual([]);
  });
});

describe('submitMailingSignup', () => {
  it('on success tracks email_signup_success and shows the spec toast', async () => {
    statuses = [201];
    await expect(submitMailingSignup('ada@example.com', 'trust-security', { apiBase })).resolves.toBe(true);
    expect(events.map((e) => [e.event, e.props])).toEqual([
      ['email_signup_success', { source: 'trust-security' }],
    ]);
    expect($toasts.get()).toEqual([
      expect.objectContaining({
        title: 'Thanks for joining!',
        description: "We'll notify you when the product launches.",
        variant: 'default',
        open: true,
      }),
    ]);
    expect(SIGNUP_SUCCESS_TOAST.title).toBe('Thanks for joining!');
  });

  it('on 409 succeeds silently: no toast', async () => {
    statuses = [409];
    await expect(submitMailingSignup('ada@example.com', 'home', { apiBase })).resolves.toBe(true);
    expect($toasts.get()).toEqual([]);
    expect(events.map((e) => e.event)).toEqual(['email_signup_success']);
  });

  it('on invalid input returns false with no request, event or toast', async () => {
    await expect(submitMailingSignup('nope', 'home', { apiBase })).resolves.toBe(false);
    expect(received).toEqual([]);
    expect(events).toEqual([]);
    expect($toasts.get()).toEqual([]);
  });

  it('on a server failure logs, tracks email_signup_error with the message, shows an error and returns false', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    statuses = [500];
    await expect(submitMailingSignup('ada@example.com', 'home', { apiBase })).resolves.toBe(false);
    expect(logged).toHaveBeenCalledOnce();
    expect(events.map((e) => [e.event, e.props])).toEqual([
      ['email_signup_error', { source: 'home', error: 'Failed to subscribe: 500' }],
    ]);
    expect($toasts.get()).toEqual([
      expect.objectContaining({ title: SIGNUP_ERROR_TOAST.title, variant: 'destructive', open: true }),
    ]);
  });

  it('explains a rate limit (429) differently', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    statuses = [429];
    await expect(submitMailingSignup('ada@example.com', 'home', { apiBase })).resolves.toBe(false);
    expect($toasts.get()[0]?.title).toBe(SIGNUP_RATE_LIMITED_TOAST.title);
  });

  it('handles a network failure like any other failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(
      submitMailingSignup('ada@example.com', 'home', { apiBase: 'http://127.0.0.1:1' }),
    ).resolves.toBe(false);
    expect(events[0]?.event).toBe('email_signup_error');
    expect($toasts.get()[0]?.variant).toBe('destructive');
  });
});
