import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ZoneRecord } from '../../../../src/scanner/zone/record.ts';
import {
  MAX_ENTRY_CHARS,
  parseZoneFile,
  readZoneFile,
  ZoneFileError,
} from '../../../../src/scanner/zone/zone-file.ts';

async function collect(records: AsyncIterable<ZoneRecord>) {
  const out: ZoneRecord[] = [];
  for await (const record of records) out.push(record);
  return out;
}

const parse = (text: string, zone = 'example.com') => collect(parseZoneFile([text], { zone }));

async function failure(text: string) {
  try {
    await parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ZoneFileError);
    return error as ZoneFileError;
  }
  throw new Error('the file parsed');
}

const FILE = `; a zone as BIND writes it
$ORIGIN example.com.
$TTL 1h
@   IN  SOA ns1 hostmaster (
        2026112501 ; serial
        2h         ; refresh
        15m 2w
        300 )      ; minimum
    IN  NS  ns1
    IN  NS  ns2.provider.net.
    IN  MX  10 mail.provider.net.
    3600 IN TXT "v=spf1 include:_spf.gone.example" " ~all"
www         A   192.0.2.1
            AAAA 2001:DB8::1
Docs    IN 600 CNAME dw-docs.surge.sh.
old     600 IN CNAME legacy          ; relative to the origin
_sip._tcp   SRV 10 5 5060 sip.provider.net.
quoted      TXT "semi;colon" "a \\"quote\\"" "tab\\009end"
@           CAA 0 issue "letsencrypt.org"
$ORIGIN sub.example.com.
deep        CNAME target.example.org.
*           CNAME wild.example.net.
$ttl 5m
short       A   192.0.2.2
`;

describe('parseZoneFile', () => {
  it('reads every form of RFC 1035 master-file syntax', async () => {
    expect(await parse(FILE)).toEqual([
      {
        name: 'example.com',
        type: 'SOA',
        ttl: 3600,
        data: 'ns1.example.com hostmaster.example.com 2026112501 7200 900 1209600 300',
      },
      { name: 'example.com', type: 'NS', ttl: 3600, data: 'ns1.example.com' },
      { name: 'example.com', type: 'NS', ttl: 3600, data: 'ns2.provider.net' },
      { name: 'example.com', type: 'MX', ttl: 3600, data: '10 mail.provider.net' },
      { name: 'example.com', type: 'TXT', ttl: 3600, data: 'v=spf1 include:_spf.gone.example ~all' },
      { name: 'www.example.com', type: 'A', ttl: 3600, data: '192.0.2.1' },
      { name: 'www.example.com', type: 'AAAA', ttl: 3600, data: '2001:db8::1' },
      { name: 'docs.example.com', type: 'CNAME', ttl: 600, data: 'dw-docs.surge.sh' },
      { name: 'old.example.com', type: 'CNAME', ttl: 600, data: 'legacy.example.com' },
      { name: '_sip._tcp.example.com', type: 'SRV', ttl: 3600, data: '10 5 5060 sip.provider.net' },
      { name: 'quoted.example.com', type: 'TXT', ttl: 3600, data: 'semi;colona "quote"tab\tend' },
      { name: 'example.com', type: 'CAA', ttl: 3600, data: '0 issue "letsencrypt.org"' },
      { name: 'deep.sub.example.com', type: 'CNAME', ttl: 3600, data: 'target.example.org' },
      { name: '*.sub.example.com', type: 'CNAME', ttl: 3600, data: 'wild.example.net' },
      { name: 'short.sub.example.com', type: 'A', ttl: 300, data: '192.0.2.2' },
    ]);
  });

  it('takes the zone as the origin, the last TTL without $TTL, and the SOA minimum before any', async () => {
    const records = await parse(
      '@ SOA ns1 h 1 2 3 4 120\nwww 60 A 192.0.2.1\napi A 192.0.2.2\n',
      'example.org',
    );
    expect(records.map((r) => `${r.name} ${r.ttl}`)).toEqual([
      'example.org 120',
      'www.example.org 60',
      'api.example.org 60',
    ]);
  });

  it('reads CRLF line ends, records of other types as written, and a file without a final newline', async () => {
    const records = await parse(
      '$TTL 60\r\nhost HINFO "PC" "Linux"\r\nloc NAPTR 100 10 "u" "E2U+sip" "" sip\r\nlast A 192.0.2.9',
    );
    expect(records).toEqual([
      { name: 'host.example.com', type: 'HINFO', ttl: 60, data: '"PC" "Linux"' },
      { name: 'loc.example.com', type: 'NAPTR', ttl: 60, data: '100 10 "u" "E2U+sip" "" sip' },
      { name: 'last.example.com', type: 'A', ttl: 60, data: '192.0.2.9' },
    ]);
  });

  it('reads a relative $ORIGIN and @ in record data', async () => {
    const records = await parse(
      '$TTL 60\n$ORIGIN eu\nshop CNAME @\n$ORIGIN example.com.\napex-alias CNAME @\n',
    );
    expect(records.map((r) => `${r.name} ${r.data}`)).toEqual([
      'shop.eu.example.com eu.example.com',
      'apex-alias.example.com example.com',
    ]);
  });

  it('skips records outside the zone and says which', async () => {
    const outside: Array<[string, number]> = [];
    const records = await collect(
      parseZoneFile(
        ['$TTL 60\nwww A 192.0.2.1\nns1.other.net. A 192.0.2.53\nexample.com.evil.net. A 192.0.2.6\n'],
        {
          zone: 'example.com',
          onOutside: (record, line) => outside.push([record.name, line]),
        },
      ),
    );
    expect(records.map((r) => r.name)).toEqual(['www.example.com']);
    expect(outside).toEqual([
      ['ns1.other.net', 3],
      ['example.com.evil.net', 4],
    ]);
  });

  it('names the line of every error', async () => {
    const cases: Array<[string, string]> = [
      [
        '$TTL 60\nwww A 192.0.2.1\n$INCLUDE /etc/passwd\n',
        'line 3: $INCLUDE is not supported: put the included records in the file itself',
      ],
      ['$TTL 60\nwww A 999.0.0.1\n', "line 2: '999.0.0.1' is not an IPv4 address"],
      ['$TTL 60\n\n\nwww CNAME\n', 'line 4: CNAME needs 1 value, got 0'],
      ['www A 192.0.2.1\n', 'line 1: no TTL on the record and no $TTL before it'],
      ['$TTL 60\n  A 192.0.2.1\n', 'line 2: a record with a blank owner before any named one'],
      ['$TTL 60\nwww CH A 192.0.2.1\n', 'line 2: class CH is not IN'],
      ['$TTL 60\nwww 60\n', "line 2: expected a record type, got 'end of line'"],
      ['$TTL 60\nwww TXT "open\n', 'line 2: unterminated quoted string'],
      ['$TTL 60\n@ SOA ns1 h (\n 1 2 3 4 5\n\nwww A 192.0.2.1\n', "line 2: '(' is never closed"],
      ['$TTL 60\nwww A 192.0.2.1 )\n', "line 2: ')' without '('"],
      [
        '$TTL 60\nmx MX high mail\n',
        "line 2: MX preference must be a whole number from 0 to 65535, got 'high'",
      ],
      ['$TTL forever\n', "line 1: $TTL needs one TTL, got 'forever'"],
      ['$GENERATE 1-10 host$ A 192.0.2.$\n', 'line 1: unknown directive $GENERATE'],
      ['$TTL 60\nx TXT "\\300"\n', 'line 2: escape \\300 is not an octet'],
    ];
    for (const [text, message] of cases) expect((await failure(text)).message).toBe(message);
  });

  it('refuses an endless line without holding it', async () => {
    async function* endless() {
      yield '$TTL 60\n';
      for (let i = 0; i < 100; i++) yield 'x'.repeat(64 * 1024);
    }
    const error = await collect(parseZoneFile(endless(), { zone: 'example.com' })).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ZoneFileError);
    expect((error as Error).message).toBe(`line 2: line longer than ${MAX_ENTRY_CHARS} characters`);
  });

  it('streams: chunks split inside lines and inside UTF-8 characters, records yielded before the end', async () => {
    const text = Buffer.from('$TTL 60\nwww TXT "café"\napi A 192.0.2.1\n');
    let sent = 0;
    async function* bytes() {
      for (let i = 0; i < text.length; i += 3) {
        sent = i + 3;
        yield text.subarray(i, i + 3);
      }
    }
    const seen: Array<[string, number]> = [];
    for await (const record of parseZoneFile(bytes(), { zone: 'example.com' }))
      seen.push([record.data, sent]);
    expect(seen.map(([data]) => data)).toEqual(['café', '192.0.2.1']);
    expect((seen[0] as [string, number])[1]).toBeLessThan(text.length);
  });

  it('reads a file from the disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-zonefile-'));
    try {
      writeFileSync(join(dir, 'example.com.zone'), FILE);
      const records = await collect(readZoneFile(join(dir, 'example.com.zone'), { zone: 'example.com' }));
      expect(records).toHaveLength(15);
      expect(records.at(-1)).toEqual({
        name: 'short.sub.example.com',
        type: 'A',
        ttl: 300,
        data: '192.0.2.2',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
