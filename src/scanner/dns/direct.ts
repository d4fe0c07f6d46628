import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { isIP } from 'node:net';
import type { Answer, RecordType } from 'dns-packet';
import dnsPacket from 'dns-packet';
import { type AllowPrivate, refusal } from '../../connectors/http/address-guard.ts';

type Rcode =
  | 'NOERROR'
  | 'FORMERR'
  | 'SERVFAIL'
  | 'NXDOMAIN'
  | 'NOTIMP'
  | 'REFUSED'
  | 'OTHER'
  | 'TIMEOUT'
  /** Not asked: the address is private, loopback, link-local or metadata (see `allowPrivate`). */
  | 'BLOCKED';

interface DirectAnswer {
  rcode: Rcode;
  authoritative: boolean;
  answers: Answer[];
  authorities: Answer[];
}

const RCODES: Rcode[] = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

/**
 * One non-recursive question straight to an authoritative server. The NS-delegation check needs
 * the server's own rcode (REFUSED, SERVFAIL) and its AA flag, which a recursive resolver hides.
 */
export async function queryDirect(
  address: string,
  port: number,
  name: string,
  type: RecordType,
  options: { timeoutMs: number; tries: number; allowPrivate: AllowPrivate; signal?: AbortSignal },
): Promise<DirectAnswer> {
  // The addresses come from the scanned zone's records: an NS host at 169.254.169.254 or
  // 127.0.0.1 would otherwise make the engine send packets inside its own network.
  if (refusal(address, options.allowPrivate)) return silence('BLOCKED');
  for (let attempt = 0; attempt < options.tries; attempt++) {
    const reply = await once(address, port, name, type, options.timeoutMs, options.signal);
    if (reply.rcode !== 'TIMEOUT') return reply;
  }
  return silence('TIMEOUT');
}

function silence(rcode: 'TIMEOUT' | 'BLOCKED'): DirectAnswer {
  return { rcode, authoritative: false, answers: [], authorities: [] };
}

function once(
  address: string,
  port: number,
  name: string,
  type: RecordType,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DirectAnswer> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const socket = dgram.createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
    // Unpredictable ids make an off-path spoofed answer harder to land.
    const id = randomInt(0, 65536);
    const finish = (error: unknown, value?: DirectAnswer) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.close();
      if (error) reject(error);
      else resolve(value as DirectAnswer);
    };
    const onAbort = () => finish(signal?.reason);
    const timer = setTimeout(() => finish(undefined, silence('TIMEOUT')), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', () => finish(undefined, silence('TIMEOUT')));
    socket.on('message', (message, from) => {
      // Only the server asked may answer, and only the question asked: anything else is spoofed
      // or stray, and is ignored rather than read.
      if (from.address !== address || from.port !== port) return;
      let packet: ReturnType<typeof dnsPacket.decode>;
      try {
        packet = dnsPacket.decode(message);
      } catch {
        return;
      }
      const question = packet.questions?.[0];
      if (
        packet.id !== id ||
        packet.type !== 'response' ||
        question?.type !== type ||
        question.name.toLowerCase() !== name.toLowerCase()
      )
        return;
      finish(undefined, {
        rcode: RCODES[(packet.flags ?? 0) & 0xf] ?? 'OTHER',
        authoritative: packet.flag_aa,
        answers: packet.answers ?? [],
        authorities: packet.authorities ?? [],
      });
    });
    socket.send(
      dnsPacket.encode({ type: 'query', id, flags: 0, questions: [{ type, name }] }),
      port,
      address,
    );
  });
}
