import { describe, expect, it } from 'vitest';
import { DatabaseOutage, isDatabaseUnavailable, whenDatabaseAnswers } from '../../../src/db/outage.ts';

const pgError = (code: string, message = 'error') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  const unavailable: [string, unknown][] = [
    [
      'a restart terminating the connection',
      pgError('57P01', 'terminating connection due to administrator command'),
    ],
    ['the server starting up', pgError('57P03', 'the database system is starting up')],
    ['a connection exception', pgError('08006', 'connection failure')],
    ['no connection slot', pgError('53300', 'sorry, too many clients already')],
    [
      'a database refusing connections',
      pgError('55000', 'database "x" is not currently accepting connections'),
    ],
    ['nothing listening', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset socket', pgError('ECONNRESET')],
    ['node-postgres in words', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['drizzle wrapping the driver', new Error('Failed query: select 1', { cause: pgError('57P01') })],
    ['an AggregateError of both addresses', new AggregateError([pgError('ECONNREFUSED')], '')],
  ];
  for (const [name, error] of unavailable) {
    it(`says yes for ${name}`, () => expect(isDatabaseUnavailable(error)).toBe(true));
  }
  const wrong: [string, unknown][] = [
    ['a unique violation', pgError('23505', 'duplicate key value')],
    ['a syntax error', pgError('42601', 'syntax error')],
    ['a wrong password', pgError('28P01', 'password authentication failed')],
    ['a missing database', pgError('3D000', 'database "x" does not exist')],
    ['a plain error', new Error('boom')],
    ['a string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ];
  for (const [name, error] of wrong) {
    it(`says no for ${name}`, () => expect(isDatabaseUnavailable(error)).toBe(false));
  }
});

describe('DatabaseOutage', () => {
  it('logs once when the database goes away and once when it is back, per outage', () => {
    const lines: string[] = [];
    const outage = new DatabaseOutage({
      warn: (_: unknown, msg: string) => lines.push(`warn ${msg}`),
      info: (_: unknown, msg: string) => lines.push(`info ${msg}`),
    } as never);
    outage.recovered();
    for (let i = 0; i < 50; i++) outage.failed(pgError('57P01'), 'poll');
    expect(outage.down).toBe(true);
    outage.recovered();
    outage.recovered();
    outage.failed(pgError('ECONNREFUSED'), 'request');
    expect(lines).toEqual([
      'warn database unreachable: answering 503 and retrying until it is back',
      'info database is back',
      'warn database unreachable: answering 503 and retrying until it is back',
    ]);
  });
});

describe('whenDatabaseAnswers', () => {
  it('tries again while the database is away and returns what the work returns', async () => {
    let tries = 0;
    const value = await whenDatabaseAnswers(async () => {
      tries++;
      if (tries < 3) throw pgError('57P01');
      return 'stored';
    });
    expect({ value, tries }).toEqual({ value: 'stored', tries: 3 });
  });

  it('throws any other error at once, and an outage once its patience is spent', async () => {
    let tries = 0;
    const wrong = whenDatabaseAnswers(async () => {
      tries++;
      throw pgError('23505', 'duplicate key value');
    });
    await expect(wrong).rejects.toThrow('duplicate key value');
    expect(tries).toBe(1);
    const away = whenDatabaseAnswers(
      async () => {
        throw pgError('ECONNREFUSED', 'connect ECONNREFUSED');
      },
      { patienceMs: 600 },
    );
    await expect(away).rejects.toThrow('connect ECONNREFUSED');
  });
});
