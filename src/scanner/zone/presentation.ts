import type { Answer } from 'dns-packet';
import dnsPacket from 'dns-packet';
import type { ZoneRecord } from './record.ts';

/** Absolute, lower case, without the trailing dot: the one name form of `ZoneRecord`. */
export function hostName(name: string) {
  return name.toLowerCase().replace(/\.$/, '');
}

// dns-packet encodes any record type it knows, but its typings do not export the encoder.
const answerCodec = (dnsPacket as unknown as { answer: { encode(a: Answer): Buffer } }).answer;

/** RFC 3597's generic form (`\# 4 0a000001`), for types the engine never reads as text. */
function generic(answer: Answer) {
  const wire = answerCodec.encode(answer);
  const owner = hostName(answer.name);
  const nameBytes = owner === '' ? 1 : Buffer.byteLength(owner) + 2;
  const length = wire.readUInt16BE(nameBytes + 8);
  const rdata = wire.subarray(nameBytes + 10, nameBytes + 10 + length);
  return length === 0 ? '\\# 0' : `\\# ${length} ${rdata.toString('hex')}`;
}

function text(data: Buffer | string | (Buffer | string)[]) {
  return (Array.isArray(data) ? data : [data]).map((part) => part.toString()).join('');
}

/** The presentation data of a decoded wire record, in the form `ZoneRecord.data` documents. */
export function wireToZoneRecord(answer: Answer): ZoneRecord {
  const base = {
    name: hostName(answer.name),
    type: answer.type,
    ttl: 'ttl' in answer ? (answer.ttl ?? 0) : 0,
  };
  switch (answer.type) {
    case 'A':
    case 'AAAA':
      return { ...base, data: answer.data.toLowerCase() };
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'DNAME':
      return { ...base, data: hostName(answer.data) };
    case 'MX':
      return { ...base, data: `${answer.data.preference ?? 0} ${hostName(answer.data.exchange)}` };
    case 'SRV': {
      const { priority, weight, port, target } = answer.data;
      return { ...base, data: `${priority ?? 0} ${weight ?? 0} ${port} ${hostName(target)}` };
    }
    case 'TXT':
      return { ...base, data: text(answer.data) };
    case 'SOA': {
      const soa = answer.data;
      return {
        ...base,
        data: [
          hostName(soa.mname),
          hostName(soa.rname),
          soa.serial,
          soa.refresh,
          soa.retry,
          soa.expire,
          soa.minimum,
        ].join(' '),
      };
    }
    case 'CAA':
      return { ...base, data: `${answer.data.flags ?? 0} ${answer.data.tag} "${answer.data.value}"` };
    default:
      return { ...base, data: generic(answer) };
  }
}
