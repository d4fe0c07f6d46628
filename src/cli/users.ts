import { listUsers, setPlan, type UserLine } from '../core/operator/accounts.ts';
import { type OperatorChannel, readOperatorChannel } from '../core/operator/channel.ts';
import { setServerPlan } from '../core/server-plan.ts';
import { migrateDatabase, openDatabase } from '../db/client.ts';
import { PLANS } from '../model/plans.ts';
import { loadConfig } from '../start/config.ts';

const USAGE = `Usage:
  danglewatch users list                      every account: e-mail, plan, domains, uid
  danglewatch users set-plan <email> <plan> [--workspace <id>]
                                              grant a plan without billing (${PLANS.map((p) => p.id).join(', ')}):
                                              to that account, or to the team workspace it owns

Uses the same database settings as 'serve' (DATABASE_URL, else the embedded database in DATA_DIR;
while a server holds the embedded database, the command asks that server).
`;

interface Accounts {
  list(): Promise<UserLine[]>;
  setPlan(email: string, plan: string, workspace?: string): Promise<number>;
  close(): Promise<void>;
}

async function ask<T>(channel: OperatorChannel, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${channel.url}/operator${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Operator ${channel.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(answer.error ?? `the server answered ${res.status}`);
  return answer;
}

async function openAccounts(): Promise<Accounts> {
  const config = loadConfig();
  setServerPlan(config.serverPlan);
  try {
    const database = await openDatabase(
      config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { dataDir: config.dataDir },
    );
    await migrateDatabase(database);
    return {
      list: () => listUsers(database.db),
      setPlan: (email, plan, workspace) => setPlan(database.db, email, plan, workspace),
      close: () => database.close(),
    };
  } catch (error) {
    const channel = !config.DATABASE_URL && readOperatorChannel(config.dataDir);
    if (!channel || !/in use by process/.test((error as Error).message)) throw error;
    return {
      list: async () => (await ask<{ users: UserLine[] }>(channel, '/users')).users,
      setPlan: async (email, plan, workspace) =>
        (await ask<{ updated: number }>(channel, '/users/plan', { email, plan, workspace })).updated,
      close: async () => {},
    };
  }
}

export async function usersCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  const help = action === undefined || action === '--help' || action === '-h';
  const at = rest.indexOf('--workspace');
  const workspace = at === -1 ? undefined : rest[at + 1];
  const positional = at === -1 ? rest : rest.filter((_, i) => i !== at && i !== at + 1);
  if (
    help ||
    (action !== 'list' && action !== 'set-plan') ||
    (action === 'set-plan' && (positional.length !== 2 || (at !== -1 && !workspace)))
  ) {
    (help ? process.stdout : process.stderr).write(USAGE);
    return help ? 0 : 2;
  }
  const accounts = await openAccounts();
  try {
    if (action === 'list') {
      for (const u of await accounts.list()) {
        process.stdout.write(`${u.email ?? '(no e-mail)'}\t${u.tier}\t${u.domains} domains\t${u.uid}\n`);
      }
      return 0;
    }
    const [email, plan] = positional as [string, string];
    if (!PLANS.some((p) => p.id === plan)) {
      process.stderr.write(
        `danglewatch users: unknown plan '${plan}' (one of ${PLANS.map((p) => p.id).join(', ')})\n`,
      );
      return 2;
    }
    let updated: number;
    try {
      updated = await accounts.setPlan(email, plan, workspace);
    } catch (error) {
      process.stderr.write(`danglewatch users: ${(error as Error).message}\n`);
      return 1;
    }
    if (updated === 0) {
      process.stderr.write(
        workspace
          ? `danglewatch users: ${email} owns no workspace ${workspace}\n`
          : `danglewatch users: no account with the e-mail address ${email} (it appears after the first sign-in)\n`,
      );
      return 1;
    }
    process.stdout.write(
      workspace
        ? `The workspace ${workspace} is now on the ${plan} plan.\n`
        : `${email} is now on the ${plan} plan.\n`,
    );
    return 0;
  } finally {
    await accounts.close();
  }
}
