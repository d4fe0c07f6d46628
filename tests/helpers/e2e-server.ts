// The e2e suite's server: the real `serve` (site, API, worker, Auth Emulator) with its scan engine
// pointed at loopback fixtures (a DNS server, crt.sh / Cert Spotter / RDAP), billing at a local
// Stripe-speaking server, a Cloudflare-speaking DNS provider, plus a small control
// API on E2E_FIXTURE_PORT through which the specs publish records, as a user would at their DNS host,
// grant plans as `danglewatch users set-plan` does, read the link
// of the newest invitation e-mail to an address, and store scan history to page through.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { ensureSiteBuilt } from '../../src/cli/build-site.ts';
import { createMailer } from '../../src/core/mail/mailer.ts';
import { listUsers, setPlan } from '../../src/core/operator/accounts.ts';
import { expireAcceptances, sendLapsedAcceptanceAlerts } from '../../src/core/triage/acceptance-expiry.ts';
import type { Db } from '../../src/db/client.ts';
import { scans, users, workspaces } from '../../src/db/schema.ts';
import { registrableDomain } from '../../src/scanner/discover/rdap.ts';
import { catalogue } from '../../src/scanner/fingerprints/catalogue.ts';
import type { ZoneRecord } from '../../src/scanner/zone/record.ts';
import { loadConfig } from '../../src/start/config.ts';
import { startServer } from '../../src/start/server.ts';
import { outboxDir } from '../../src/start/worker.ts';
import { startApiServer } from '../fixtures/api-server.ts';
import { startAwsFake } from '../fixtures/cloud/aws.ts';
import { startCloudflareFake } from '../fixtures/dns-providers/cloudflare.ts';
import { assignedNameServers } from '../fixtures/dns-providers/fake-server.ts';
import { type FixtureRecord, startDnsServer } from '../fixtures/dns-server.ts';
import { PROBE_AZURE, PROBE_KEY, type ProofBehaviour, startProofServer } from '../fixtures/proof-server.ts';
import { FIXTURE_SECRET_KEY, startStripeServer } from '../fixtures/stripe-server.ts';
import { linearError, startLinear } from '../fixtures/trackers/linear.ts';
import { startPagerDuty } from '../fixtures/trackers/pagerduty.ts';
import { guardSockets } from './loopback-guard.ts';

/** What the server and its worker tried to reach beyond loopback: refused, and read by the suite's teardown. */
const reachedBeyond: string[] = [];
guardSockets((where) => {
  reachedBeyond.push(where);
  process.stderr.write(`e2e server: refused a connection beyond loopback: ${where}\n`);
});

const controlPort = Number(process.env.E2E_FIXTURE_PORT);
if (!Number.isInteger(controlPort) || controlPort <= 0) throw new Error('E2E_FIXTURE_PORT is not set');

const dns = await startDnsServer();
const api = await startApiServer();
// Stripe's stand-in: its checkout page's 'Pay' sends signed events to the server's webhook.
const stripe = await startStripeServer({
  webhookTarget: `http://127.0.0.1:${process.env.PORT}/api/billing/webhook`,
});
// The DNS provider the connected-DNS specs connect to; they learn its one valid token from /cloudflare/zone.
const cloudflareToken = 'e2e-cloudflare-read-token-7f3a';
const cloudflare = await startCloudflareFake({ token: cloudflareToken });
// PagerDuty's Events API, for the integrations specs: its one routing key, and the alerts it holds (GET /pagerduty).
const pagerduty = await startPagerDuty();
pagerduty.routingKeys.add('e2epagerdutyroutingkey0000000001');
// Linear's GraphQL API: one API key, one team (Security, key SEC) the specs connect by its key;
// POST /linear/refuse-create has its next issue refused, as a failing delivery meets it.
const linear = await startLinear();
linear.apiKeys.add('lin_api_e2e_key');
linear.teams.set('7c4e9a1b-2222-4333-8444-555566667777', {
  key: 'SEC',
  name: 'Security',
  states: [
    { id: 'sec-todo', name: 'Todo', type: 'unstarted', position: 1 },
    { id: 'sec-done', name: 'Done', type: 'completed', position: 2 },
  ],
});
// Azure, Elastic Beanstalk and Shopify's availability APIs: every name free unless a spec says
// otherwise through /provider-name, as the providers would answer the operator's probe credentials.
const providers = await startProofServer();
// Every service domain of the catalogue (and the DNS hosts' domains the connected zones are
// delegated to) exists at RDAP, as it does on the internet: only the names a spec makes dangle.
for (const entry of catalogue)
  for (const pattern of [...entry.cname, ...entry.ns]) {
    const domain = registrableDomain(pattern.replace(/\*/g, 'x'));
    if (domain) api.registered.add(domain);
  }
for (const domain of ['cloudflare.com', 'awsdns.com', 'googledomains.com']) api.registered.add(domain);
// The AWS account the cloud-account specs connect, speaking AWS's wire formats; its addresses are in
// 127.0.90.0/24, which this server's ranges file declares AWS's.
const awsKey = { accessKeyId: 'AKIAE2ECLOUDACCOUNT1', secretAccessKey: 'e2e-aws-secret-access-key' };
const aws = await startAwsFake(awsKey);
const rangesFile = join(process.env.DATA_DIR ?? '.', '..', 'cloud-ranges.json');
await writeFile(
  rangesFile,
  JSON.stringify({
    version: 1,
    clouds: { aws: { published: '2026-11-27', source: 'the e2e fixture', prefixes: ['127.0.90.0/24'] } },
  }),
);

const readBody = async (req: http.IncomingMessage) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return JSON.parse(raw || '{}') as Record<string, unknown>;
};

const quiet = pino({ level: 'silent' });

// Set once the server is up: the control API also seeds the database the server holds.
let db: Db | undefined;

/** Completed scans with one finding each, for a user by e-mail: enough history to page through. */
async function seedScans(email: string, domain: string, count: number) {
  const user = (await listUsers(db as Db)).find((u) => u.email === email);
  if (!user) throw new Error(`no account ${email}`);
  const at = Date.now();
  await (db as Db).insert(scans).values(
    Array.from({ length: count }, (_, i) => ({
      workspaceId: user.uid,
      domain,
      status: 'completed',
      trigger: 'scheduled',
      createdAt: new Date(at - (i + 1) * 60_000),
      startedAt: new Date(at - (i + 1) * 60_000),
      completedAt: new Date(at - (i + 1) * 60_000 + 4_000),
      durationSeconds: 4,
      subdomainsScanned: 10 + i,
    })),
  );
}

/**
 * The accept link of the newest invitation e-mail to `email` in the server's outbox (its .eml files
 * are named by the time they were written), as the invited person would click it.
 */
async function invitationLink(outbox: string, email: string): Promise<string> {
  const names = (await readdir(outbox)).filter((name) => name.endsWith('.eml')).sort();
  for (const name of names.reverse()) {
    // Quoted-printable bodies fold long lines with '=' and write '=' as '=3D'.
    const text = (await readFile(join(outbox, name), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
    const to = /^to:(.*)$/im.exec(text)?.[1] ?? '';
    if (!to.toLowerCase().includes(email.toLowerCase())) continue;
    const link = /https?:\/\/[^\s"<>]+\/invitations\/accept\?token=[^\s"<>]+/.exec(text)?.[0];
    if (link) return link;
  }
  throw new Error(`no invitation e-mail to ${email}`);
}

/** The subjects of the e-mails in the outbox to `email`, oldest first (headers unfolded, decoded). */
async function mailSubjects(outbox: string, email: string): Promise<string[]> {
  const names = (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  const subjects: string[] = [];
  for (const name of names) {
    const mail = await simpleParser(await readFile(join(outbox, name)));
    const to = mail.to ? (Array.isArray(mail.to) ? mail.to : [mail.to]).map((a) => a.text).join(',') : '';
    if (to.toLowerCase().includes(email.toLowerCase())) subjects.push(mail.subject ?? '');
  }
  return subjects;
}

/** Webhook deliveries the server made to `/hook`, for the specs to read at `GET /hooks`. */
const hooks: { headers: http.IncomingHttpHeaders; body: unknown }[] = [];

const control = http.createServer(async (req, res) => {
  try {
    const body = req.method === 'POST' ? await readBody(req) : {};
    if (req.url === '/hook' && req.method === 'POST') {
      hooks.push({ headers: req.headers, body });
    } else if (req.url === '/pagerduty') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(Object.fromEntries(pagerduty.alerts)));
      return;
    } else if (req.url === '/reached-beyond') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reachedBeyond));
      return;
    } else if (req.url === '/hooks') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(hooks));
      return;
    } else if (req.url === '/linear/refuse-create' && req.method === 'POST') {
      linear.operationFaults.set(
        'Create',
        linearError('Argument Validation Error', 'INVALID_INPUT', 'teamId must be a UUID.'),
      );
    } else if (req.url === '/dns' && req.method === 'POST') {
      dns.add(String(body.name), { type: body.type, data: body.data } as FixtureRecord);
    } else if (req.url === '/cloudflare/zone' && req.method === 'POST') {
      // A zone the user holds at Cloudflare, with its records and status (active unless `status`
      // says otherwise); the answer is the read-only token and the name servers Cloudflare assigned.
      const zone = String(body.zone);
      cloudflare.zones.set(zone, (body.records as ZoneRecord[] | undefined) ?? []);
      const nameServers = assignedNameServers(cloudflare, zone, 'cloudflare');
      cloudflare.delegations.set(zone, { nameServers, status: String(body.status ?? 'active') });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ token: cloudflareToken, nameServers }));
      return;
    } else if (req.url === '/cloudflare/status' && req.method === 'POST') {
      const zone = String(body.zone);
      const nameServers = assignedNameServers(cloudflare, zone, 'cloudflare');
      cloudflare.delegations.set(zone, { nameServers, status: String(body.status) });
    } else if (req.url === '/cloudflare/record' && req.method === 'POST') {
      cloudflare.addRecord(String(body.zone), body.record as ZoneRecord);
    } else if (req.url === '/cloudflare/revoke' && req.method === 'POST') {
      // The token is revoked at Cloudflare: the next read of this zone is refused as Cloudflare does.
      const name = encodeURIComponent(String(body.zone)).replace(/[.]/g, '\\.');
      cloudflare.faults.push({
        status: 403,
        path: new RegExp(`[?&]name=${name}(&|$)`),
        body: JSON.stringify({
          success: false,
          errors: [{ code: 9109, message: 'Invalid access token' }],
          messages: [],
          result: null,
        }),
      });
    } else if (req.url === '/aws/hold' && req.method === 'POST') {
      // The AWS account allocates an Elastic IP; the answer is the key that reads the account.
      aws.world.elasticIps.push({
        region: 'us-east-1',
        ip: String(body.ip),
        allocationId: String(body.allocationId),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(awsKey));
      return;
    } else if (req.url === '/aws/release' && req.method === 'POST') {
      aws.world.elasticIps = aws.world.elasticIps.filter((a) => a.ip !== String(body.ip));
    } else if (req.url === '/ct' && req.method === 'POST') {
      api.crtsh.set(
        String(body.domain),
        (body.names as string[]).map((name) => ({ name_value: name })),
      );
    } else if (req.url === '/plan' && req.method === 'POST') {
      await setPlan(db as Db, String(body.email), String(body.plan));
    } else if (req.url === '/invitation-link' && req.method === 'POST') {
      const link = await invitationLink(outbox, String(body.email));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ link }));
      return;
    } else if (req.url === '/stripe/payment-failed' && req.method === 'POST') {
      // Stripe could not charge the card at renewal: the subscription is past due, then the event.
      const [payer] = await (db as Db)
        .select({ customer: workspaces.stripeCustomerId, subscription: workspaces.stripeSubscriptionId })
        .from(users)
        .innerJoin(workspaces, eq(workspaces.id, users.id))
        .where(eq(users.email, String(body.email)));
      if (!payer?.customer || !payer.subscription) throw new Error('no subscription');
      const subscription = stripe.subscriptions.get(payer.subscription);
      if (subscription) subscription.status = 'past_due';
      const invoice = stripe.addInvoice(payer.customer, {
        amount: 499,
        status: 'open',
        subscription: payer.subscription,
      });
      await stripe.emit('invoice.payment_failed', invoice);
    } else if (req.url === '/clock' && req.method === 'POST') {
      // The clock moved to `at` for the job that ends accepted risks: it runs as the worker's
      // every-minute job would then, and tells each ended acceptance by e-mail.
      const at = new Date(String(body.at));
      const ended = await expireAcceptances(db as Db, at);
      const mailer = createMailer({
        from: 'DangleWatch <alerts@localhost>',
        outboxDir: outbox,
        logger: quiet,
      });
      await sendLapsedAcceptanceAlerts(
        db as Db,
        { mailer, publicUrl: `http://127.0.0.1:${process.env.PORT}` },
        quiet,
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ended }));
      return;
    } else if (req.url === '/mail-subjects' && req.method === 'POST') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ subjects: await mailSubjects(outbox, String(body.email)) }));
      return;
    } else if (req.url === '/provider-name' && req.method === 'POST') {
      providers.names.set(String(body.name), String(body.answer) as ProofBehaviour);
    } else if (req.url === '/scans' && req.method === 'POST') {
      await seedScans(String(body.email), String(body.domain), Number(body.count));
    } else if (req.url !== '/health') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  } catch (error) {
    res.writeHead(400).end(String(error));
  }
});
await new Promise<void>((resolve) => control.listen(controlPort, '127.0.0.1', resolve));

// Provider calls read their base URL from the environment when they are made.
process.env.CLOUDFLARE_API_URL = cloudflare.url;
Object.assign(process.env, aws.env);
await ensureSiteBuilt((line) => process.stdout.write(`${line}\n`));
const config = loadConfig({
  ...process.env,
  SCAN_RESOLVERS: `127.0.0.1:${dns.port}`,
  CT_URL: `${api.url}/crtsh`,
  CERTSPOTTER_URL: `${api.url}/certspotter`,
  RDAP_URL: `${api.url}/rdap`,
  SCAN_ALLOW_PRIVATE: 'true',
  PAGERDUTY_EVENTS_URL: pagerduty.url,
  LINEAR_API_URL: linear.url,
  AWS_PROBE_ACCESS_KEY_ID: PROBE_KEY.accessKeyId,
  AWS_PROBE_SECRET_ACCESS_KEY: PROBE_KEY.secretAccessKey,
  AWS_ELASTICBEANSTALK_ENDPOINT: `${providers.url}/eb`,
  AZURE_PROBE_TENANT_ID: PROBE_AZURE.tenantId,
  AZURE_PROBE_CLIENT_ID: PROBE_AZURE.clientId,
  AZURE_PROBE_CLIENT_SECRET: PROBE_AZURE.clientSecret,
  AZURE_PROBE_SUBSCRIPTION_ID: PROBE_AZURE.subscriptionId,
  AZURE_LOGIN_URL: `${providers.url}/login`,
  AZURE_MANAGEMENT_URL: `${providers.url}/arm`,
  SHOPIFY_SIGNUP_URL: `${providers.url}/shopify`,
  ZONE_SYNC_MINUTES: '1',
  CLOUD_SYNC_MINUTES: '1',
  CLOUD_RANGES_FILE: rangesFile,
  STRIPE_SECRET_KEY: FIXTURE_SECRET_KEY,
  STRIPE_API_URL: stripe.url,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_PRICES: Object.entries(stripe.prices)
    .map(([plan, price]) => `${plan}=${price}`)
    .join(','),
});
const outbox = outboxDir(config);
const { stop, database } = await startServer(config);

db = database.db;

const shutdown = async () => {
  await stop();
  control.close();
  await Promise.all([
    dns.close(),
    api.close(),
    stripe.close(),
    cloudflare.close(),
    providers.close(),
    aws.close(),
    pagerduty.close(),
    linear.close(),
  ]);
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
