// `node bench/cloud-inventory.ts`: a connected AWS account holding 10,000 public addresses (and a
// thousand resources) read through the official SDK clients from the loopback fake, at the real
// APIs' page sizes, and stored in the embedded database: the first read (every row new) and a
// second one (every row seen again). Prints figures and the target next to them; enforces nothing.
// The fake runs in this process, so its work counts against the read: the figures are an upper bound.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { restartWithRuntimeSettings } from '../bin/runtime.js';
import { createCloudAccount } from '../src/core/cloud-accounts/accounts.ts';
import { syncCloudAccount } from '../src/core/cloud-accounts/sync.ts';
import { migrateDatabase, openDatabase } from '../src/db/client.ts';
import { cloudAccounts, users, workspaces } from '../src/db/schema.ts';
import { emptyWorld, startAwsFake } from '../tests/fixtures/cloud/aws.ts';
import { personalContext } from '../tests/helpers/context.ts';

restartWithRuntimeSettings(import.meta.filename);

const TARGET_SECONDS = 10;
const ADDRESSES = 10_000;
const KEY = { accessKeyId: 'AKIABENCHINVENTORY01', secretAccessKey: 'bench-secret' };

const world = emptyWorld();
world.regions = ['eu-west-1', 'us-east-1', 'us-west-2'];
for (let i = 0; i < ADDRESSES; i++) {
  const region = world.regions[i % 3] as string;
  const ip = `127.${1 + Math.floor(i / 65536)}.${Math.floor(i / 256) % 256}.${i % 256}`;
  if (i % 10 === 0) world.elasticIps.push({ region, ip, allocationId: `eipalloc-${i}` });
  else if (i % 10 < 7) world.instances.push({ region, id: `i-${i}`, ip });
  else world.interfaces.push({ region, id: `eni-${i}`, ip });
}
for (let i = 0; i < 250; i++) {
  world.buckets.push({ name: `bucket-${i}`, region: 'us-east-1' });
  world.distributions.push({ id: `E${i}`, domainName: `d${i}.cloudfront.net` });
}
// The real APIs' largest pages: 1,000 instances or interfaces, 100 distributions.
const fake = await startAwsFake({ ...KEY, world, pageSize: 1000 });
const database = await openDatabase({ dataDir: undefined });
try {
  await migrateDatabase(database);
  const db = database.db;
  await db.insert(users).values({ id: 'bench', email: 'owner@bench.test', provider: 'google' });
  await db.update(workspaces).set({ tier: 'pro-solo' }).where(eq(workspaces.id, 'bench'));
  const ctx = personalContext('bench', { tier: 'pro-solo', email: 'owner@bench.test' });
  const secrets = { key: randomBytes(32) };
  const options = { env: fake.env };
  const made = await createCloudAccount(db, secrets, ctx, { provider: 'aws', credentials: KEY }, options);
  const lines = [
    `cloud inventory: ${ADDRESSES.toLocaleString('en-US')} addresses, target < ${TARGET_SECONDS} s a read`,
  ];
  for (const label of ['first read', 'second read']) {
    const [account] = await db.select().from(cloudAccounts).where(eq(cloudAccounts.id, made.id));
    if (!account) throw new Error('no account');
    const started = performance.now();
    const stored = await syncCloudAccount(db, secrets.key, account, options, new Date());
    const seconds = (performance.now() - started) / 1000;
    lines.push(
      `  ${label.padEnd(12)} ${seconds.toFixed(2)} s  (${stored.addresses} addresses, ${stored.resources} resources, ${fake.requests.length} requests so far)  ${seconds < TARGET_SECONDS ? 'ok' : 'MISSED'}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await fake.close();
  await database.close();
}
