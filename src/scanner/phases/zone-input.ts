import { isIP } from 'node:net';
import { isHostName, normaliseName } from '../dns/names.ts';
import type { ZoneRecord } from '../zone/record.ts';

/** What the zone itself says about one owner name: no need to ask DNS for any of it. */
export interface Known {
  /** The CNAME target, or the ALIAS target (an alias behaves as a CNAME for the scan). */
  cname?: string;
  alias?: boolean;
  a: string[];
  aaaa: string[];
  ns: string[];
  /** `priority exchange`, as `DnsPool` gives MX records. */
  mx: string[];
  txt: string[];
  /** SRV targets (host names). */
  srv: string[];
}

export interface OwnerRecords {
  name: string;
  known: Known;
}

/**
 * A record as any source may hand it over (a file, a transfer, a provider's API), checked field by
 * field: a schema's parse copied every record of a 100,000-record zone into objects of its own.
 */
function isRecord(raw: unknown): raw is ZoneRecord {
  if (typeof raw !== 'object' || raw === null) return false;
  const { name, type, ttl, data } = raw as Partial<Record<keyof ZoneRecord, unknown>>;
  return (
    typeof name === 'string' &&
    name.length >= 1 &&
    name.length <= 255 &&
    typeof type === 'string' &&
    type.length >= 1 &&
    type.length <= 16 &&
    Number.isFinite(ttl) &&
    typeof data === 'string' &&
    data.length <= 65_535
  );
}

const emptyKnown = (): Known => ({ a: [], aaaa: [], ns: [], mx: [], txt: [], srv: [] });

/** The host name a record names, or undefined for the root (`.`, "no service") and bad data. */
function host(raw: string | undefined) {
  const name = normaliseName(raw ?? '');
  return isHostName(name) ? name : undefined;
}

/** Adds one record to what is known of its owner; false when its data is not what its type holds. */
function learn(known: Known, type: string, data: string): boolean {
  // Only MX and SRV data has fields; split for them alone.
  const fields = type === 'MX' || type === 'SRV' ? data.trim().split(/\s+/) : [];
  switch (type) {
    case 'CNAME':
    case 'ALIAS': {
      const target = host(data);
      if (!target) return false;
      known.cname = target;
      known.alias = type === 'ALIAS';
      return true;
    }
    case 'A':
      if (isIP(data.trim()) !== 4) return false;
      known.a.push(data.trim());
      return true;
    case 'AAAA':
      if (isIP(data.trim()) !== 6) return false;
      known.aaaa.push(data.trim().toLowerCase());
      return true;
    case 'NS': {
      const target = host(data);
      if (!target) return false;
      known.ns.push(target);
      return true;
    }
    case 'MX': {
      // `0 .` is a null MX (RFC 7505): the name takes no mail, nothing to follow.
      if (fields[1] === '.') return true;
      const exchange = host(fields[1]);
      if (!exchange || !/^\d+$/.test(fields[0] ?? '')) return false;
      known.mx.push(`${fields[0]} ${exchange}`);
      return true;
    }
    case 'TXT':
      known.txt.push(data);
      return true;
    case 'SRV': {
      if (fields[3] === '.') return true;
      const target = host(fields[3]);
      if (!target) return false;
      known.srv.push(target);
      return true;
    }
    default:
      // SOA, CAA, PTR and the rest point at nothing a takeover could claim.
      return true;
  }
}

/**
 * Reads a zone's record stream one owner at a time: consecutive records of one owner are merged,
 * and each group is yielded before the next is read, so memory holds one owner's records, never
 * the zone. An owner whose records are not consecutive is yielded once per run of them.
 */
export async function* byOwner(
  records: AsyncIterable<ZoneRecord>,
  onInvalid: (record: unknown) => void,
): AsyncGenerator<OwnerRecords> {
  let current: OwnerRecords | undefined;
  for await (const raw of records) {
    if (!isRecord(raw)) {
      onInvalid(raw);
      continue;
    }
    const name = normaliseName(raw.name);
    if (current && current.name !== name) {
      yield current;
      current = undefined;
    }
    current ??= { name, known: emptyKnown() };
    if (!learn(current.known, raw.type.toUpperCase(), raw.data)) onInvalid(raw);
  }
  if (current) yield current;
}
