/** The record types the engine asks for and reads; everything else in an answer is skipped. */
export const TYPE = { A: 1, NS: 2, CNAME: 5, MX: 15, TXT: 16, AAAA: 28, SRV: 33, OPT: 41, NSEC: 47 } as const;

export const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'] as const;

/** The UDP payload size offered in EDNS: large enough for long CNAME chains, small enough not to fragment. */
const EDNS_PAYLOAD = 1232;

interface WireRecord {
  /** Owner name, lower case; `INVALID` when it holds bytes no host name has. */
  name: string;
  type: number;
  /**
   * A/AAAA: the address; CNAME, NS: the target, NSEC: the next owner name, as sent, lower case (`INVALID` for dots inside
   * labels and bytes outside printable ASCII); MX: `preference exchange`; SRV: `priority weight port
   * target`; TXT: its strings joined.
   */
  data: string;
}

export interface WireReply {
  id: number;
  truncated: boolean;
  rcode: number;
  question: { name: string; type: number } | undefined;
  answers: WireRecord[];
}

/** Stands for a name whose labels hold dots or bytes outside printable ASCII: never followed. */
const INVALID = '\\invalid';

/** A recursive question (RD set) with an EDNS OPT record; `name` must be a host name. */
export function encodeQuery(id: number, name: string, type: number): Buffer {
  // A host name is ASCII: one byte a character, and its dots become the labels' length bytes.
  const size = 12 + name.length + 2 + 4 + 11;
  // From the shared pool (one small allocation less per question), zeroed as the unset fields must be.
  const out = Buffer.allocUnsafe(size).fill(0);
  out.writeUInt16BE(id, 0);
  out.writeUInt16BE(0x0100, 2);
  out.writeUInt16BE(1, 4);
  out.writeUInt16BE(1, 10);
  let lengthAt = 12;
  let at = 13;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code === 0x2e) {
      out[lengthAt] = at - lengthAt - 1;
      lengthAt = at++;
    } else out[at++] = code;
  }
  out[lengthAt] = at - lengthAt - 1;
  out[at++] = 0;
  out.writeUInt16BE(type, at);
  out.writeUInt16BE(1, at + 2);
  at += 4;
  // OPT: root name, type 41, class = payload size, no extended flags, no options.
  out[at++] = 0;
  out.writeUInt16BE(TYPE.OPT, at);
  out.writeUInt16BE(EDNS_PAYLOAD, at + 2);
  return out;
}

class Malformed extends Error {}

/**
 * Where `readName` spells a name, lower case, before it becomes one string: a reply holds a few
 * names, and a string per label (then one for its lower case, then the joined name) was most of
 * what decoding a reply allocated. A name is at most 255 bytes.
 */
const spelled = Buffer.alloc(256);

/** Reads a possibly compressed name; loops and overlong names are malformed. */
function readName(msg: Buffer, start: number): { name: string; next: number } {
  let at = start;
  let next = -1;
  let length = 0;
  let valid = true;
  let out = 0;
  for (let jumps = 0; ; ) {
    const len = msg[at];
    if (len === undefined) throw new Malformed();
    if (len === 0) {
      if (next < 0) next = at + 1;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      const low = msg[at + 1];
      if (low === undefined || ++jumps > 64) throw new Malformed();
      if (next < 0) next = at + 2;
      at = ((len & 0x3f) << 8) | low;
      continue;
    }
    if (len > 63 || at + 1 + len > msg.length) throw new Malformed();
    length += len + 1;
    if (length > 255) throw new Malformed();
    if (out > 0) spelled[out++] = 0x2e;
    for (let i = at + 1; i <= at + len; i++) {
      const byte = msg[i] as number;
      // A dot inside a label would read as two labels: a name no host has, never to be followed.
      if (byte < 0x21 || byte > 0x7e || byte === 0x2e) valid = false;
      spelled[out++] = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
    }
    at += 1 + len;
  }
  return { name: valid ? spelled.toString('latin1', 0, out) : INVALID, next };
}

/** RFC 5952 text of a 16-byte address, as `dns.resolve6` gives it. */
function ipv6(bytes: Buffer) {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i));
  let bestAt = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestAt = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestAt < 0) return hex.join(':');
  return `${hex.slice(0, bestAt).join(':')}::${hex.slice(bestAt + bestLen).join(':')}`;
}

/** The character strings of a TXT record, joined as `dns.resolveTxt` callers join them. */
function readStrings(msg: Buffer, start: number, end: number) {
  let out = '';
  for (let at = start; at < end; ) {
    const len = msg[at] as number;
    if (at + 1 + len > end) throw new Malformed();
    out += msg.toString('utf8', at + 1, at + 1 + len);
    at += 1 + len;
  }
  return out;
}

/** Decodes a reply; undefined when it is not one (too short, malformed, not a response). */
export function decodeReply(msg: Buffer): WireReply | undefined {
  try {
    if (msg.length < 12) return undefined;
    const flags = msg.readUInt16BE(2);
    if ((flags & 0x8000) === 0) return undefined;
    const qdcount = msg.readUInt16BE(4);
    const ancount = msg.readUInt16BE(6);
    let at = 12;
    let question: WireReply['question'];
    for (let i = 0; i < qdcount; i++) {
      const { name, next } = readName(msg, at);
      if (next + 4 > msg.length) throw new Malformed();
      if (i === 0) question = { name, type: msg.readUInt16BE(next) };
      at = next + 4;
    }
    const answers: WireRecord[] = [];
    for (let i = 0; i < ancount; i++) {
      const { name, next } = readName(msg, at);
      if (next + 10 > msg.length) throw new Malformed();
      const type = msg.readUInt16BE(next);
      const rdlength = msg.readUInt16BE(next + 8);
      const rdata = next + 10;
      if (rdata + rdlength > msg.length) throw new Malformed();
      if (type === TYPE.A && rdlength === 4) {
        answers.push({
          name,
          type,
          data: `${msg[rdata]}.${msg[rdata + 1]}.${msg[rdata + 2]}.${msg[rdata + 3]}`,
        });
      } else if (type === TYPE.AAAA && rdlength === 16) {
        answers.push({ name, type, data: ipv6(msg.subarray(rdata, rdata + 16)) });
      } else if (type === TYPE.CNAME || type === TYPE.NS || type === TYPE.NSEC) {
        // NSEC: the next owner name of the zone (never compressed); the type bitmap after it is not read.
        answers.push({ name, type, data: readName(msg, rdata).name });
      } else if (type === TYPE.MX && rdlength > 2) {
        answers.push({ name, type, data: `${msg.readUInt16BE(rdata)} ${readName(msg, rdata + 2).name}` });
      } else if (type === TYPE.SRV && rdlength > 6) {
        const fields = `${msg.readUInt16BE(rdata)} ${msg.readUInt16BE(rdata + 2)} ${msg.readUInt16BE(rdata + 4)}`;
        answers.push({ name, type, data: `${fields} ${readName(msg, rdata + 6).name}` });
      } else if (type === TYPE.TXT) {
        answers.push({ name, type, data: readStrings(msg, rdata, rdata + rdlength) });
      }
      at = rdata + rdlength;
    }
    return {
      id: msg.readUInt16BE(0),
      truncated: (flags & 0x0200) !== 0,
      rcode: flags & 0x000f,
      question,
      answers,
    };
  } catch (error) {
    if (error instanceof Malformed) return undefined;
    throw error;
  }
}
