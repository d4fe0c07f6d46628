import { isIP, type Socket } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import { brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib';
import { buildConnector, Client, errors } from 'undici';
import { type AllowPrivate, refusal } from '../../connectors/http/address-guard.ts';
import { isHostName } from '../dns/names.ts';
import { probeStopTexts as stops } from '../report/texts.ts';

export type Scheme = 'http' | 'https';

export interface Response {
  url: string;
  host: string;
  address: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Why a probe stopped early, its message a plain sentence. `blocked`: the guard refused the
 * address; `refused`, `unreachable` and `timeout` (no connection in time): nothing listens there,
 * or the name does not resolve; the rest are a fault of the server (`reset`, `slow`: connected but
 * not done in time, `tls`, `other`) or a limit it ran into (`limit`: the body, the headers, the
 * redirects, a compressed page that unpacks too far).
 */
export interface ProbeStop {
  kind: 'blocked' | 'refused' | 'unreachable' | 'timeout' | 'reset' | 'slow' | 'tls' | 'limit' | 'other';
  message: string;
}

export interface ProbeResult {
  scheme: Scheme;
  /** Responses in order, the first from the scanned name at the pinned address. */
  responses: Response[];
  /**
   * Set when the probe stopped early. A page cut off at the body limit is kept in `responses`,
   * with this saying it was cut off.
   */
  error?: ProbeStop;
}

/** Header bytes a response may send before the probe gives up on it. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Why a probe could not finish its check: a fault of the server or a limit it ran into, as the
 * name's error. Undefined when it finished, when nothing listens at the address or nothing
 * connects in time (what a removed resource or a firewalled host looks like), and for a refused
 * address (its own error, said where it is refused).
 */
export function unfinished(result: ProbeResult): string | undefined {
  const kind = result.error?.kind;
  if (!kind || kind === 'blocked' || kind === 'refused' || kind === 'unreachable' || kind === 'timeout')
    return undefined;
  return result.error?.message;
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
  for (let hop = 0; ; hop++) {
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
    const response = await fetchPinned(url, hopHost, pinned, options, result).catch(() => {
      options.signal?.throwIfAborted();
      return undefined;
    });
    if (!response) return result;
    result.responses.push(response);
    const location = response.headers.location;
    if (result.error || response.status < 300 || response.status > 399 || !location) return result;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return result;
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return result;
    if (!next.port) next.port = String(options.ports[next.protocol === 'http:' ? 'http' : 'https']);
    if (result.responses.some((earlier) => earlier.url === next.href)) {
      result.error = { kind: 'limit', message: stops.redirectLoop(next.href) };
      return result;
    }
    if (hop === options.maxRedirects) {
      result.error = { kind: 'limit', message: stops.redirectLimit(options.maxRedirects) };
      return result;
    }
    pinned = next.hostname === url.hostname ? pinned : undefined;
    url = next;
  }
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
 * header and the path. A fault rejects, and sets the result's error first; a page cut off at a
 * limit is returned, with the error set.
 */
async function fetchPinned(
  url: URL,
  host: string,
  address: string,
  options: ProbeOptions,
  result: ProbeResult,
): Promise<Response> {
  const connect = buildConnector({
    rejectUnauthorized: false,
    timeout: options.timeoutMs,
    secureContext: sharedSecureContext(),
  });
  const tls = url.protocol === 'https:';
  // How far the exchange got, for the sentence a timeout gets: no connection, a handshake that
  // stalled, no answer, or a page that came too slowly.
  const reached = { tcp: false, connected: false, headers: false };
  // One client for the one origin of this request (no pool, no WHATWG fetch on top: a scan makes
  // hundreds of probes, and fetch's Request, Headers and streams cost more than the request itself).
  const client = new Client(url.origin, {
    maxHeaderSize: MAX_HEADER_BYTES,
    connect: (connectOptions, callback) => {
      const port = Number(connectOptions.port) || options.ports[tls ? 'https' : 'http'];
      options.onConnect?.(address, port);
      // undici's connector returns the socket it opens, though its types say nothing is returned.
      const socket = connect(
        { ...connectOptions, hostname: address, servername: isIP(host) ? undefined : host },
        (...answer) => {
          reached.connected = answer[0] === null;
          callback(...answer);
        },
      ) as unknown as Socket | undefined;
      if (tls)
        socket?.once('connect', () => {
          reached.tcp = true;
        });
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
    reached.headers = true;
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const max = options.maxBodyBytes;
    const raw = await readCapped(response.body, max);
    if (raw.cut) result.error = { kind: 'limit', message: stops.bodyLimit(max) };
    const encoding = headers['content-encoding']?.trim().toLowerCase();
    const body =
      encoding && encoding !== 'identity'
        ? unpack(raw.bytes, encoding, max, result)
        : raw.bytes.toString('utf8');
    return { url: url.href, host, address, status: response.statusCode, headers, body };
  } catch (error) {
    result.error = classify(error, reached, options.timeoutMs);
    throw error;
  } finally {
    client.destroy(PROBE_DONE).catch(() => {});
  }
}

/** The body up to `max` bytes; `cut` when the server had more to send. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size > max) break;
    }
  } finally {
    body.destroy();
  }
  return { bytes: Buffer.concat(chunks).subarray(0, max), cut: size > max };
}

/**
 * The probe asks for no encoding, which HTTP reads as any encoding: a compressed page is unpacked,
 * up to the body limit (a small gzip body may unpack to gigabytes), and partly when it was cut off.
 */
function unpack(bytes: Buffer, encoding: string, max: number, result: ProbeResult): string {
  const zlib = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: max };
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(bytes, zlib).toString('utf8');
    if (encoding === 'deflate') return inflateSync(bytes, zlib).toString('utf8');
    if (encoding === 'br') {
      const brotli = { finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: max };
      return brotliDecompressSync(bytes, brotli).toString('utf8');
    }
  } catch (error) {
    const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    result.error = tooLarge
      ? { kind: 'limit', message: stops.unpackLimit(encoding, max) }
      : { kind: 'other', message: stops.badEncoding(encoding) };
    return '';
  }
  result.error ??= { kind: 'other', message: stops.badEncoding(encoding) };
  return '';
}

function classify(
  error: unknown,
  reached: { tcp: boolean; connected: boolean; headers: boolean },
  timeoutMs: number,
): ProbeStop {
  const cause = (error as { cause?: { code?: string; message?: string; name?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code ?? '';
  const name = (error as { name?: string }).name ?? '';
  const message = cause?.message ?? (error as Error).message ?? String(error);
  if (code === 'ECONNREFUSED') return { kind: 'refused', message };
  if (code === 'ECONNRESET') return { kind: 'reset', message: stops.reset };
  if (name === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    if (reached.headers) return { kind: 'slow', message: stops.slowBody(timeoutMs) };
    if (reached.connected) return { kind: 'slow', message: stops.noAnswer(timeoutMs) };
    if (reached.tcp) return { kind: 'slow', message: stops.handshakeStalled(timeoutMs) };
    return { kind: 'timeout', message: stops.noConnection(timeoutMs) };
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW')
    return { kind: 'limit', message: stops.headerLimit(MAX_HEADER_BYTES) };
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || /ssl|tls/i.test(message)) {
    return { kind: 'tls', message: stops.tls(message) };
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return { kind: 'unreachable', message };
  if (code === 'UND_ERR_SOCKET') return { kind: 'other', message: stops.closed };
  if (name === 'HTTPParserError') return { kind: 'other', message: stops.notHttp(message) };
  return { kind: 'other', message };
}
