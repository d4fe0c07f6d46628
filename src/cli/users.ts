import { count, eq, sql } from 'drizzle-orm';
import { type Db, migrateDatabase, openDatabase } from '../db/client.ts';
import { domains, users } from '../db/schema.ts';
import { PLANS, type PlanId } from '../lib/plans.ts';
import { loadConfig } from '../server/config.ts';

const USAGE = `Usage:
  danglewatch users list                      every account: e-mail, plan, domains, uid
  danglewatch users set-plan <email> <plan>   grant a plan without billing (${PLANS.map((p) => p.id).join(', ')})

Uses the same database settings as 'serve' (DATABASE_URL, else the embedded database in DATA_DIR,
which only one process may hold: stop the server first, or run it on PostgreSQL).
`;

export interface UserLine {
  email: string | null;
  tier: string;
  domains: number;
  uid: string;
}

export async function listUsers(db: Db): Promise<UserLine[]> {
  const rows = await db
    .select({ email: users.email, tier: users.tier, uid: users.id, domains: count(domains.id) })
    .from(users)
    .leftJoin(domains, eq(domains.userId, users.id))
    .groupBy(users.id)
    .orderBy(users.email);
  return rows.map((r) => ({ ...r, domains: Number(r.domains) }));
}

/** Sets the plan of every account with this e-mail address (case-insensitive); returns how many. */
export async function setPlan(db: Db, email: string, plan: string): Promise<number> {
  if (!PLANS.some((p) => p.id === plan)) {
    throw new Error(`unknown plan '${plan}' (one of ${PLANS.map((p) => p.id).join(', ')})`);
  }
  const updated = await db
    .update(users)
    .set({ tier: plan as PlanId, updatedAt: sql`now()` })
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .returning({ id: users.id });
  return updated.length;
}

export async function usersCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'list' && action !== 'set-plan') {
    (action && action !== '--help' && action !== '-h' ? process.stderr : process.stdout).write(USAGE);
    return action && action !== '--help' && action !== '-h' ? 2 : 0;
  }
  if (action === 'set-plan' && rest.length !== 2) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(
    config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { dataDir: config.dataDir },
  );
  try {
    await migrateDatabase(database);
    if (action === 'list') {
      for (const u of await listUsers(database.db)) {
        process.stdout.write(`${u.email ?? '(no e-mail)'}\t${u.tier}\t${u.domains} domains\t${u.uid}\n`);
      }
      return 0;
    }
    const [email, plan] = rest as [string, string];
    const changed = await setPlan(database.db, email, plan);
    if (changed === 0) {
      process.stderr.write(
        `danglewatch users: no account with the e-mail address ${email} (it appears after the first sign-in)\n`,
      );
      return 1;
    }
    process.stdout.write(`${email} is now on the ${plan} plan.\n`);
    return 0;
  } finally {
    await database.close();
  }
}
