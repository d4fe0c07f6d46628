import { createReadStream } from 'node:fs';
import { isIP } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { hostName } from './presentation.ts';
import type { ZoneRecord } from './record.ts';

/** A zone file the parser cannot read; `line` is the line where the faulty entry starts. */
export class ZoneFileError extends Error {
  override name = 'ZoneFileError';
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.line = line;
  }
}

interface ZoneFileOptions {
  /** The zone the file describes, and the origin until a `$ORIGIN` changes it. */
  zone: string;
  /**
   * Called for each record whose owner lies outside the zone (glue of other zones, a file of the
   * wrong domain). Such records are skipped, never yielded: a user who proved one domain must not
   * make us scan another's names by listing them in its file.
   */
  onOutside?: (record: ZoneRecord, line: number) => void;
}

/** A logical entry (a record with its parenthesised continuation lines) longer than this is refused. */
export const MAX_ENTRY_CHARS = 256 * 1024;
const MAX_TTL = 2 ** 31 - 1;
const CLASSES = new Set(['IN', 'CH', 'HS', 'CS']);
const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

interface Token {
  text: string;
  quoted: boolean;
  /** The token as written, for record types kept in their presentation form. */
  raw: string;
}

interface Entry {
  line: number;
  blankOwner: boolean;
  tokens: Token[];
  chars: number;
}

/** `\X` is X itself and `\DDD` the octet DDD (RFC 1035 §5.1). */
function escaped(line: string, at: number, lineNo: number): [string, number] {
  const digits = /^\d{3}/.exec(line.slice(at + 1, at + 4));
  if (digits) {
    const code = Number(digits[0]);
    if (code > 255) throw new ZoneFileError(lineNo, `escape \\${digits[0]} is not an octet`);
    return [String.fromCharCode(code), at + 4];
  }
  if (at + 1 >= line.length) throw new ZoneFileError(lineNo, 'a backslash ends the line');
  return [line[at + 1] as string, at + 2];
}

/** One physical line's tokens; parentheses only change the depth that joins lines into an entry. */
function tokenize(line: string, lineNo: number, state: { depth: number }, into: Token[]) {
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === ';') {
      return;
    } else if (c === '(') {
      state.depth++;
      i++;
    } else if (c === ')') {
      if (--state.depth < 0) throw new ZoneFileError(lineNo, "')' without '('");
      i++;
    } else if (c === '"') {
      const start = i++;
      let text = '';
      for (;;) {
        if (i >= line.length) throw new ZoneFileError(lineNo, 'unterminated quoted string');
        const ch = line[i];
        if (ch === '"') {
          i++;
          break;
        }
        if (ch === '\\') {
          const [char, next] = escaped(line, i, lineNo);
          text += char;
          i = next;
        } else {
          text += ch;
          i++;
        }
      }
      into.push({ text, quoted: true, raw: line.slice(start, i) });
    } else {
      const start = i;
      let text = '';
      while (i < line.length && !' \t;()"'.includes(line[i] as string)) {
        if (line[i] === '\\') {
          const [char, next] = escaped(line, i, lineNo);
          text += char;
          i = next;
        } else {
          text += line[i];
          i++;
        }
      }
      into.push({ text, quoted: false, raw: line.slice(start, i) });
    }
  }
}

/** A TTL in seconds: `3600`, or BIND's units `1h30m`, `2d`, `1w`. */
function parseTtl(text: string): number | undefined {
  let seconds: number;
  if (/^\d+$/.test(text)) seconds = Number(text);
  else if (/^(\d+[smhdw])+$/i.test(text)) {
    seconds = 0;
    for (const [, n, unit] of text.toLowerCase().matchAll(/(\d+)([smhdw])/g))
      seconds += Number(n) * (TTL_UNITS[unit as string] as number);
  } else return undefined;
  return seconds <= MAX_TTL ? seconds : undefined;
}

function absolute(name: string, origin: string, line: number) {
  if (name === '@') return origin;
  if (name === '') throw new ZoneFileError(line, 'empty name');
  // Under the root origin (`$ORIGIN .`, or an API whose names are all absolute) a name is absolute.
  if (name.endsWith('.') || origin === '') return hostName(name);
  return hostName(`${name}.${origin}`);
}

function integer(token: Token | undefined, what: string, max: number, line: number) {
  if (!token || !/^\d+$/.test(token.text) || Number(token.text) > max)
    throw new ZoneFileError(
      line,
      `${what} must be a whole number from 0 to ${max}, got '${token?.raw ?? ''}'`,
    );
  return Number(token.text);
}

/** The record's data in `ZoneRecord` form: absolute lower-case host names, TXT strings joined. */
function recordData(type: string, rdata: Token[], origin: string, line: number): string {
  const arity = (n: number) => {
    if (rdata.length !== n)
      throw new ZoneFileError(line, `${type} needs ${n} value${n > 1 ? 's' : ''}, got ${rdata.length}`);
  };
  const name = (token: Token) => absolute(token.text, origin, line);
  switch (type) {
    case 'A':
    case 'AAAA': {
      arity(1);
      const address = (rdata[0] as Token).text.toLowerCase();
      if (isIP(address) !== (type === 'A' ? 4 : 6))
        throw new ZoneFileError(line, `'${address}' is not an IPv${type === 'A' ? 4 : 6} address`);
      return address;
    }
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'DNAME':
      arity(1);
      return name(rdata[0] as Token);
    case 'MX':
      arity(2);
      return `${integer(rdata[0], 'MX preference', 65535, line)} ${name(rdata[1] as Token)}`;
    case 'SRV':
      arity(4);
      return [
        integer(rdata[0], 'SRV priority', 65535, line),
        integer(rdata[1], 'SRV weight', 65535, line),
        integer(rdata[2], 'SRV port', 65535, line),
        name(rdata[3] as Token),
      ].join(' ');
    case 'TXT':
    case 'SPF':
      if (rdata.length === 0) throw new ZoneFileError(line, `${type} needs at least one string`);
      return rdata.map((t) => t.text).join('');
    case 'SOA': {
      arity(7);
      const timers = ['serial', 'refresh', 'retry', 'expire', 'minimum'].map((what, i) => {
        const token = rdata[i + 2] as Token;
        const value = what === 'serial' ? Number(token.text) : parseTtl(token.text);
        if (
          value === undefined ||
          !/^\d/.test(token.text) ||
          !Number.isSafeInteger(value) ||
          value > 2 ** 32 - 1
        )
          throw new ZoneFileError(line, `SOA ${what} '${token.raw}' is not valid`);
        return value;
      });
      return [name(rdata[0] as Token), name(rdata[1] as Token), ...timers].join(' ');
    }
    case 'CAA':
      arity(3);
      return `${integer(rdata[0], 'CAA flags', 255, line)} ${(rdata[1] as Token).text} "${(rdata[2] as Token).text}"`;
    default:
      if (rdata.length === 0) throw new ZoneFileError(line, `${type} has no data`);
      return rdata.map((t) => t.raw).join(' ');
  }
}

/** A stream of text: a file or request body, or the chunks of a string already in memory. */
type TextChunks = AsyncIterable<string | Buffer> | Iterable<string | Buffer>;

/** The lines of a text stream, without their line ends, one at a time. */
async function* lines(input: TextChunks): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let count = 0;
  for await (const chunk of input) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let end = pending.indexOf('\n');
    let start = 0;
    while (end !== -1) {
      count++;
      yield pending.slice(start, end).replace(/\r$/, '');
      start = end + 1;
      end = pending.indexOf('\n', start);
    }
    pending = pending.slice(start);
    if (pending.length > MAX_ENTRY_CHARS)
      throw new ZoneFileError(count + 1, `line longer than ${MAX_ENTRY_CHARS} characters`);
  }
  pending += decoder.end();
  if (pending !== '') yield pending.replace(/\r$/, '');
}

/**
 * A BIND master file (RFC 1035 §5.1) read line by line from a stream: `$ORIGIN`, `$TTL`, `@`,
 * relative names, a blank owner for the previous one, parentheses across lines, `;` comments,
 * quoted strings with `\X` and `\DDD` escapes, class and TTL in either order, the class optional.
 * `$INCLUDE` is refused: a file must not make us read others from the disk. Every error names the
 * line where its entry starts.
 */
export async function* parseZoneFile(
  input: TextChunks,
  options: ZoneFileOptions,
): AsyncGenerator<ZoneRecord> {
  const zone = hostName(options.zone);
  let origin = zone;
  let defaultTtl: number | undefined;
  let lastTtl: number | undefined;
  let owner: string | undefined;
  const state = { depth: 0 };
  let entry: Entry | undefined;
  let lineNo = 0;

  const finish = (current: Entry): ZoneRecord | undefined => {
    const { line, tokens } = current;
    const first = tokens[0] as Token;
    if (!current.blankOwner && !first.quoted && first.text.startsWith('$')) {
      const directive = first.text.toUpperCase();
      if (directive === '$ORIGIN') {
        if (tokens.length !== 2) throw new ZoneFileError(line, '$ORIGIN needs one name');
        origin = absolute((tokens[1] as Token).text, origin, line);
      } else if (directive === '$TTL') {
        const ttl = tokens.length === 2 ? parseTtl((tokens[1] as Token).text) : undefined;
        if (ttl === undefined)
          throw new ZoneFileError(
            line,
            `$TTL needs one TTL, got '${tokens
              .slice(1)
              .map((t) => t.raw)
              .join(' ')}'`,
          );
        defaultTtl = ttl;
      } else if (directive === '$INCLUDE') {
        throw new ZoneFileError(
          line,
          '$INCLUDE is not supported: put the included records in the file itself',
        );
      } else {
        throw new ZoneFileError(line, `unknown directive ${first.raw}`);
      }
      return undefined;
    }
    let at = 0;
    if (!current.blankOwner) {
      owner = absolute(first.text, origin, line);
      at = 1;
    } else if (owner === undefined) {
      throw new ZoneFileError(line, 'a record with a blank owner before any named one');
    }
    let ttl: number | undefined;
    let klass: string | undefined;
    for (let k = 0; k < 2; k++) {
      const token = tokens[at];
      if (!token || token.quoted) break;
      const asTtl = ttl === undefined ? parseTtl(token.text) : undefined;
      if (asTtl !== undefined) ttl = asTtl;
      else if (klass === undefined && CLASSES.has(token.text.toUpperCase())) klass = token.text.toUpperCase();
      else break;
      at++;
    }
    if (klass !== undefined && klass !== 'IN') throw new ZoneFileError(line, `class ${klass} is not IN`);
    const typeToken = tokens[at];
    const type = typeToken?.text.toUpperCase();
    if (!typeToken || typeToken.quoted || !type || !/^[A-Z][A-Z0-9-]*$/.test(type))
      throw new ZoneFileError(line, `expected a record type, got '${typeToken?.raw ?? 'end of line'}'`);
    const data = recordData(type, tokens.slice(at + 1), origin, line);
    if (type === 'SOA' && ttl === undefined && defaultTtl === undefined && lastTtl === undefined) {
      // RFC 2308: without $TTL, BIND takes the SOA's minimum field as the default.
      ttl = Number(data.split(' ')[6]);
    }
    ttl ??= defaultTtl ?? lastTtl;
    if (ttl === undefined) throw new ZoneFileError(line, 'no TTL on the record and no $TTL before it');
    lastTtl = ttl;
    return { name: owner as string, type, ttl, data };
  };

  for await (const text of lines(input)) {
    lineNo++;
    if (!entry) entry = { line: lineNo, blankOwner: /^[ \t]/.test(text), tokens: [], chars: 0 };
    entry.chars += text.length;
    if (entry.chars > MAX_ENTRY_CHARS)
      throw new ZoneFileError(entry.line, `entry longer than ${MAX_ENTRY_CHARS} characters`);
    tokenize(text, lineNo, state, entry.tokens);
    if (state.depth > 0) continue;
    const done = entry;
    entry = undefined;
    if (done.tokens.length === 0) continue;
    const record = finish(done);
    if (!record) continue;
    if (record.name === zone || record.name.endsWith(`.${zone}`)) yield record;
    else options.onOutside?.(record, done.line);
  }
  if (state.depth > 0 && entry) throw new ZoneFileError(entry.line, "'(' is never closed");
}

/** `parseZoneFile` over a file on disk, streamed. */
export function readZoneFile(path: string, options: ZoneFileOptions) {
  return parseZoneFile(createReadStream(path), options);
}

/**
 * One record's data in presentation form (`10 mail.example.net.`, `"v=spf1" " ~all"`), as the
 * provider APIs that speak it hand it over, in `ZoneRecord` form; names relative to `origin`, or
 * all absolute when `origin` is empty.
 */
export function presentationData(type: string, text: string, origin: string): string {
  const tokens: Token[] = [];
  const state = { depth: 0 };
  tokenize(text, 1, state, tokens);
  return recordData(type.toUpperCase(), tokens, hostName(origin), 1);
}
