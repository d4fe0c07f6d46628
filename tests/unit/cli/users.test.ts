import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { usersCommand } from '../../../src/cli/users.ts';
import { publishOperatorChannel } from '../../../src/core/operator/channel.ts';
import { setServerPlan } from '../../../src/core/server-plan.ts';
import { type Database, migrateDatabase, openDatabase } from '../../../src/db/client.ts';
import { users, workspaceMembers, workspaces } from '../../../src/db/schema.ts';
import { testApp } from '../../helpers/app.ts';

// `npm start` holds the embedded database; `danglewatch users` must still work beside it.
describe('danglewatch users beside a running server on the embedded database', () => {
  let dataDir: string;
  let database: Database;
  let server: ReturnType<typeof serve>;
  let url: string;
  const token = 'operator-token-for-the-test-0123456789';
  let unpublish: () => void;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dw-users-'));
    database = await openDatabase({ dataDir });
    await migrateDatabase(database);
    await database.db.insert(users).values({ id: 'u-1', email: 'Owner@Acme.com', provider: 'google' });
    const app = testApp(database, { operatorToken: token });
    server = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    unpublish = publishOperatorChannel(dataDir, { url, token });
    vi.stubEnv('DATA_DIR', dataDir);
    vi.stubEnv('DATABASE_URL', '');
    // A server that bills: plans are each workspace's own, and the operator sets them.
    vi.stubEnv('STRIPE_SECRET_KEY', 'sk_test_operator');
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    setServerPlan(null);
    unpublish?.();
    await new Promise((resolve) => server?.close(resolve));
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const run = async (args: string[]) => {
    const out: string[] = [];
    const write = (chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    };
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(write);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(write);
    try {
      return { code: await usersCommand(args), out: out.join('') };
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
  };

  it('set-plan reaches the server that holds the database', async () => {
    expect(await run(['set-plan', 'owner@acme.com', 'solo'])).toEqual({
      code: 0,
      out: 'owner@acme.com is now on the solo plan.\n',
    });
    const [row] = await database.db.select().from(workspaces).where(eq(workspaces.id, 'u-1'));
    expect(row?.tier).toBe('solo');
  });

  it('set-plan --workspace grants a plan to a team workspace its owner names', async () => {
    await database.db.insert(workspaces).values({ id: 'team-1', name: 'Acme' });
    await database.db
      .insert(workspaceMembers)
      .values({ workspaceId: 'team-1', userId: 'u-1', role: 'owner' });
    expect(await run(['set-plan', 'owner@acme.com', 'intro', '--workspace', 'team-1'])).toEqual({
      code: 0,
      out: 'The workspace team-1 is now on the intro plan.\n',
    });
    const [team] = await database.db.select().from(workspaces).where(eq(workspaces.id, 'team-1'));
    expect(team?.tier).toBe('intro');
    expect(await run(['set-plan', 'owner@acme.com', 'intro', '--workspace', 'team-2'])).toEqual({
      code: 1,
      out: 'danglewatch users: owner@acme.com owns no workspace team-2\n',
    });
    expect(await run(['set-plan', 'owner@acme.com', 'intro', '--workspace'])).toMatchObject({ code: 2 });
  });

  it('list and the errors read plainly', async () => {
    expect((await run(['list'])).out).toBe('Owner@Acme.com\tsolo\t0 domains\tu-1\n');
    expect(await run(['set-plan', 'nobody@acme.com', 'intro'])).toMatchObject({ code: 1 });
    expect(await run(['set-plan', 'owner@acme.com', 'gold'])).toMatchObject({ code: 2 });
    expect(await run(['set-plan', 'owner@acme.com'])).toMatchObject({ code: 2 });
  });

  it('set-plan on a server that sells no plans says DEFAULT_PLAN gives every workspace its plan, and changes nothing', async () => {
    vi.stubEnv('STRIPE_SECRET_KEY', '');
    try {
      expect(await run(['set-plan', 'owner@acme.com', 'intro'])).toEqual({
        code: 1,
        out: 'danglewatch users: this server sells no plans: every workspace has pro-solo (DEFAULT_PLAN); set DEFAULT_PLAN=free to give plans one by one\n',
      });
      const [row] = await database.db.select().from(workspaces).where(eq(workspaces.id, 'u-1'));
      expect(row?.tier).toBe('solo');
      vi.stubEnv('DEFAULT_PLAN', 'free');
      expect(await run(['set-plan', 'owner@acme.com', 'intro'])).toMatchObject({ code: 0 });
      expect(await run(['set-plan', 'owner@acme.com', 'solo'])).toMatchObject({ code: 0 });
    } finally {
      vi.stubEnv('STRIPE_SECRET_KEY', 'sk_test_operator');
      vi.stubEnv('DEFAULT_PLAN', '');
      setServerPlan(null);
    }
  });

  it('the operator routes answer only the operator token, as if they did not exist', async () => {
    const wrong = await fetch(`${url}/operator/users`, { headers: { authorization: 'Operator nope' } });
    expect(wrong.status).toBe(404);
    const none = await fetch(`${url}/operator/users`);
    expect(none.status).toBe(404);
    const right = await fetch(`${url}/operator/users`, { headers: { authorization: `Operator ${token}` } });
    expect(right.status).toBe(200);
  });
});
