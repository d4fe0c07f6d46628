import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import { buildConnector, Client, errors } from 'undici';
import { type AllowPrivate, refusal } from '../../connectors/http/address-guard.ts';
import { isHostName } from '../dns/names.ts';

export type Scheme = 'http' | 'https';

export interface Response {
  url: string;
  host: string;
  address: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ProbeResult {
  scheme: Scheme;
  /** Responses in order, the first from the scanned name at the pinned address. */
  responses: Response[];
  /** Set when the probe stopped early: a refused address, a connection error, a timeout. */
  error?: { kind: 'blocked' | 'refused' | 'timeout' | 'tls' | 'unreachable' | 'other'; message: string };
}

interface ProbeOptions {
  ports: Record<Scheme, number>;
  allowPrivate: AllowPrivate;
  timeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  /** Resolves a redirect target's host through the scan's resolvers (once per hop). */
  resolveAddress: (host: string) => Promise<string | undefined>;
  signal?: AbortSignal;
  /** Called by the connector for every connection it opens, with the address it connects to. */
  onConnect?: (address: string, port: number) => void;
  /** The path asked for (`/` when absent), e.g. `/.well-known/mta-sts.txt`. */
  path?: string;
}

const USER_AGENT = 'DangleWatch/0.1 (+subdomain takeover scanner)';

/**
 * One HTTP or HTTPS probe of `host` at `address`, the address the scan's resolvers returned. The
 * connection is pinned to that address (no second lookup that a rebinding attacker could answer
 * differently), the name goes in Host and SNI, certificates are not checked (a dangling host
 * rarely has a valid one), and every redirect hop is resolved and checked again.
 */
export async function probe(host: string, address: string, scheme: Scheme, options: ProbeOptions) {
  const result: ProbeResult = { scheme, responses: [] };
  if (!isHostName(host)) {
    result.error = {
      kind: 'blocked',
      message: `refused to probe ${JSON.stringify(host.slice(0, 80))}: not a host name`,
    };
    return result;
  }
  let url = new URL(`${scheme}://${host}:${options.ports[scheme]}${options.path ?? '/'}`);
  let pinned: string | undefined = address;
  for (let hop = 0; hop <= options.maxRedirects; hop++) {
    const hopHost = url.hostname.replace(/^\[|\]$/g, '');
    if (!isIP(hopHost) && !isHostName(hopHost)) {
      result.error = {
        kind: 'blocked',
        message: `refused to follow a redirect to ${JSON.stringify(hopHost)}`,
      };
      return result;
    }
    pinned ??= isIP(hopHost) ? hopHost : await options.resolveAddress(hopHost);
    if (!pinned) {
      result.error = { kind: 'unreachable', message: `${hopHost} does not resolve` };
      return result;
    }
    const refused = refusal(pinned, options.allowPrivate);
    if (refused) {
      result.error = { kind: 'blocked', message: `refused to connect to ${pinned} (${refused})` };
      return result;
    }
    const response = await fetchPinned(url, hopHost, pinned, options).catch((error: unknown) => {
      options.signal?.throwIfAborted();
      result.error = classify(error);
      return undefined;
    });
    if (!response) return result;
    result.responses.push(response);
    const location = response.headers.location;
    if (response.status < 300 || response.status > 399 || !location) return result;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return result;
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return result;
    if (!next.port) next.port = String(options.ports[next.protocol === 'http:' ? 'http' : 'https']);
    pinned = next.hostname === url.hostname ? pinned : undefined;
    url = next;
  }
  return result;
}

/**
 * What each probe's client is destroyed with once its one request is over. Without one, undici
 * makes a new error for every destroy and Node's stream formats its stack trace: 40-50 ms of CPU
 * in a 1,000-name domain's scan. This one's stack is formatted once.
 */
const PROBE_DONE = new errors.ClientDestroyedError();

let secureContext: SecureContext | undefined;
/**
 * One TLS context for every probe: certificates are not checked, so nothing in it depends on the
 * host, and building one per connection (the CA store each time) cost more than the handshake.
 */
function sharedSecureContext() {
  secureContext ??= createSecureContext();
  return secureContext;
}

/**
 * The connection goes to `address` whatever the URL says: the connector replaces the host it was
 * given by the pinned, checked address and keeps the name for SNI. The URL only supplies the Host
 * header and the path.
 */
async function fetchPinned(
  url: URL,
  host: string,
  address: string,
  options: ProbeOptions,
): Promise<Response> {
  const connect = buildConnector({
    rejectUnauthorized: false,
    timeout: options.timeoutMs,
    secureContext: sharedSecureContext(),
  });
  // One client for the one origin of this request (no pool, no WHATWG fetch on top: a scan makes
  // hundreds of probes, and fetch's Request, Headers and streams cost more than the request itself).
  const client = new Client(url.origin, {
    connect: (connectOptions, callback) => {
      const port = Number(connectOptions.port) || options.ports[url.protocol === 'http:' ? 'http' : 'https'];
      options.onConnect?.(address, port);
      return connect(
        { ...connectOptions, hostname: address, servername: isIP(host) ? undefined : host },
        callback,
      );
    },
  });
  const signals = [AbortSignal.timeout(options.timeoutMs)];
  if (options.signal) signals.push(options.signal);
  try {
    const response = await client.request({
      method: 'GET',
      path: `${url.pathname}${url.search}`,
      signal: AbortSignal.any(signals),
      headers: { 'user-agent': USER_AGENT, accept: '*/*' },
    });
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const body = await readCapped(response.body, options.maxBodyBytes);
    return { url: url.href, host, address, status: response.statusCode, headers, body };
  } finally {
    client.destroy(PROBE_DONE).catch(() => {});
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= max) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

function classify(error: unknown): NonNullable<ProbeResult['error']> {
  const cause = (error as { cause?: { code?: string; message?: string; name?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code ?? '';
  const name = (error as { name?: string }).name ?? '';
  const message = cause?.message ?? (error as Error).message ?? String(error);
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return { kind: 'refused', message };
  if (name === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return { kind: 'timeout', message };
  }
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || /ssl|tls/i.test(message)) {
    return { kind: 'tls', message };
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return { kind: 'unreachable', message };
  return { kind: 'other', message };
}
