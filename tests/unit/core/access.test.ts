import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { authorize, type WorkspaceContext } from '../../../src/core/access.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { ROLE_NEEDED, WORKSPACE_ROLES, type WorkspaceAction } from '../../../src/model/workspaces.ts';

/**
 * The entry points into the services are the functions of src/core that src/server and src/worker
 * import. Each either takes a WorkspaceContext and checks its permission on its first line, or takes
 * the signed-in Actor and acts on that account alone, or is listed here as public, with the reason.
 */
const PUBLIC: Record<string, string> = {
  'api-keys/api-keys.ts#findApiKey': 'how the API-key middleware finds the key that builds the context',
  'api-keys/api-keys.ts#markApiKeyUsed': 'bookkeeping of a key the middleware has just accepted',
  'alerts/unsubscribe.ts#unsubscribeTarget':
    'reads a signed unsubscribe link: the signature is the permission',
  'alerts/unsubscribe.ts#stopEmailAlerts': 'acts on a target a signed unsubscribe link named',
  'billing/info.ts#requireBilling': 'says whether Stripe is configured on this server; no data',
  'billing/subscriptions.ts#handleStripeEvent': "Stripe's webhook: the event's signature is the permission",
  'users/users.ts#authUserResponse': "the verified token's own account",
  'users/users.ts#currentUser': "the verified token's own account",
  'users/users.ts#recordSignIn': "the verified token's own account",
  'users/users.ts#upsertUser': "the verified token's own account",
  'users/users.ts#setPrimaryDomain': "the verified token's own account",
  'users/users.ts#mergeSettings': "the verified token's own account",
  'users/users.ts#profileOf': "the verified token's own account",
  'users/users.ts#setDisplayName': "the verified token's own account",
  'workspaces/workspaces.ts#workspaceAccess': 'builds the context: the caller must be a member (else 404)',
  'workspaces/workspaces.ts#workspaceTier': "builds the context: the workspace's plan",
  'scans/scans.ts#latestWorkerHeartbeat': 'the public health check: no workspace data',
  'operator/accounts.ts#listUsers': 'the operator console, behind its own token (routes/operator.ts)',
  'operator/accounts.ts#setPlan': 'the operator console, behind its own token (routes/operator.ts)',
  'operator/accounts.ts#isPlanId': 'a pure check of a plan id',
  'mailing-list.ts#subscribe': 'the public mailing-list form: anyone may sign up their address',
  'members/members.ts#previewInvitation':
    "an invitation link's token is the permission: it names the inviter and the workspace, nothing more",
  'json-stream.ts#jsonObjectStream': 'a pure serialiser',
  'validation.ts#parseInput': 'a pure validator',
  'rate-limits.ts#countAgainst': "the rate limiter's counter, keyed by the caller",
  'connections/disabled-mail.ts#mailConnectionsDisabled': 'mails owners what a service already disabled',
  'connections/answerable.ts#disabledView': 'a pure view of a row the caller already read',
  'account/export.ts#exportFileName': 'a pure file name',
  // The worker's jobs have no caller: each acts on what the product itself queued or scheduled.
  'account/delete-account.ts#purgeDeletedAccounts': 'worker: retention of tombstones, no caller',
  'retention/rate-limits.ts#purgeRateLimits': 'worker: retention, no caller',
  'retention/stripe-events.ts#purgeStripeEvents': 'worker: retention, no caller',
  'retention/scans.ts#purgeExpiredScans': "worker: each plan's retention, no caller",
  'retention/webhook-deliveries.ts#purgeWebhookDeliveries': 'worker: retention, no caller',
  'retention/integration-deliveries.ts#purgeIntegrationDeliveries': 'worker: retention, no caller',
  'scans/reaper.ts#reapStaleScans': 'worker: scans whose worker went away, no caller',
  'scans/reaper.ts#pendingScanIds': 'worker: re-queues what the product queued, at start',
  'scans/worker-heartbeats.ts#recordWorkerHeartbeat': 'worker: its own heartbeat',
  'scans/worker-heartbeats.ts#forgetWorkerHeartbeat': 'worker: its own heartbeat',
  'domains/scheduled-scans.ts#scheduleDueScans': "worker: the schedule's scans, no caller",
  'scans/run.ts#runScan': 'worker: runs a scan the product queued (a checked request or the schedule)',
  'alerts/send-scan-alert.ts#sendScanAlert': "worker: mails a finished scan's changes to its workspace",
  'webhooks/scan-changes.ts#queueWebhookAlerts':
    "worker: a finished scan's changes to its workspace's webhooks",
  'webhooks/deliver.ts#deliverWebhook': 'worker: delivers what a service queued',
  'integrations/deliver.ts#deliverIntegration': 'worker: delivers what a service queued',
  'integrations/tickets.ts#claimTicketDeliveries': "worker: queues the tickets whose findings' state changed",
  'alerts/weekly-summary.ts#sendWeeklySummaries': "worker: each workspace's acceptances ending this week",
  'triage/acceptance-expiry.ts#expireAcceptances': 'worker: ends acceptances whose expiry came, no caller',
  'triage/acceptance-expiry.ts#sendLapsedAcceptanceAlerts':
    'worker: tells the workspace of an ended acceptance',
  'dns-connections/scheduled-sync.ts#dueConnections': "worker: the schedule's zone syncs, no caller",
  'dns-connections/scheduled-sync.ts#runZoneSync': 'worker: a sync the schedule or a checked request queued',
  'cloud-accounts/scheduled-sync.ts#dueCloudAccounts': "worker: the schedule's cloud reads, no caller",
  'cloud-accounts/scheduled-sync.ts#runCloudSync': 'worker: a read the schedule or a checked request queued',
};

const root = resolve(import.meta.dirname, '../../..');
const core = join(root, 'src/core');

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** `core/<module>#<name>` of every value src/server or src/worker imports from src/core. */
function entryPoints(): string[] {
  const found = new Set<string>();
  const callers = [...sourceFiles(join(root, 'src/server')), ...sourceFiles(join(root, 'src/worker'))];
  for (const file of callers) {
    for (const statement of parse(file).statements) {
      if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
      const target = resolve(dirname(file), (statement.moduleSpecifier as ts.StringLiteral).text);
      if (!target.startsWith(`${core}/`)) continue;
      const names = statement.importClause?.namedBindings;
      if (!names || !ts.isNamedImports(names)) continue;
      for (const element of names.elements) {
        if (!element.isTypeOnly) found.add(`${target.slice(core.length + 1)}#${element.name.text}`);
      }
    }
  }
  return [...found].sort();
}

type Verdict = 'context' | 'actor' | 'not-a-function' | 'unchecked';

/** How an exported function of src/core guards itself. */
function verdictOf(entry: string): { verdict: Verdict; detail: string } {
  const [module, name] = entry.split('#') as [string, string];
  const source = parse(join(core, module));
  const declaration = source.statements.find(
    (s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name,
  );
  if (!declaration?.body) {
    const arrow = source.statements.some(
      (s) =>
        ts.isVariableStatement(s) &&
        s.declarationList.declarations.some(
          (d) => d.name.getText(source) === name && d.initializer && ts.isArrowFunction(d.initializer),
        ),
    );
    return arrow
      ? { verdict: 'unchecked', detail: 'an arrow function: write entry points as function declarations' }
      : { verdict: 'not-a-function', detail: '' };
  }
  const typeOf = (p: ts.ParameterDeclaration) => p.type?.getText(source) ?? '';
  const context = declaration.parameters.find((p) => typeOf(p) === 'WorkspaceContext');
  if (context) {
    const first = declaration.body.statements[0];
    const call =
      first && ts.isExpressionStatement(first) && ts.isCallExpression(first.expression)
        ? first.expression
        : undefined;
    const checks =
      call?.expression.getText(source) === 'authorize' &&
      call.arguments[0]?.getText(source) === context.name.getText(source) &&
      call.arguments[1] !== undefined;
    return { verdict: checks ? 'context' : 'unchecked', detail: first?.getText(source) ?? '(empty)' };
  }
  if (declaration.parameters.some((p) => typeOf(p) === 'Actor')) return { verdict: 'actor', detail: '' };
  return { verdict: 'unchecked', detail: 'takes neither a WorkspaceContext nor an Actor' };
}

describe('every service entry point checks a permission', () => {
  const entries = entryPoints();

  it('finds the entry points the routes call', () => {
    expect(entries).toContain('domains/domains.ts#addDomain');
    expect(entries).toContain('members/members.ts#inviteMember');
    expect(entries.length).toBeGreaterThan(40);
  });

  it('each checks the context on its first line, acts on its actor alone, or is public with a reason', () => {
    const unchecked = entries
      .filter((entry) => !(entry in PUBLIC))
      .map((entry) => ({ entry, ...verdictOf(entry) }))
      .filter((v) => v.verdict === 'unchecked')
      .map((v) => `${v.entry}: ${v.detail}`);
    expect(unchecked).toEqual([]);
  });

  it('lists as public only what the server or the worker still calls', () => {
    expect(Object.keys(PUBLIC).filter((entry) => !entries.includes(entry))).toEqual([]);
  });
});

describe('authorize', () => {
  const context = (
    role: WorkspaceContext['role'],
    via: WorkspaceContext['actor']['via'],
  ): WorkspaceContext => ({
    workspace: { id: 'w', name: 'Acme', personal: false, tier: 'team' },
    actor: { userId: 'u', email: null, emailVerified: true, displayName: null, ip: undefined, via },
    role,
  });

  it('allows each role exactly what the rule table gives it', () => {
    for (const role of WORKSPACE_ROLES) {
      for (const action of Object.keys(ROLE_NEEDED) as WorkspaceAction[]) {
        const allowed = WORKSPACE_ROLES.indexOf(role) <= WORKSPACE_ROLES.indexOf(ROLE_NEEDED[action]);
        const attempt = () => authorize(context(role, 'session'), action);
        if (allowed) expect(attempt, `${role} ${action}`).not.toThrow();
        else expect(attempt, `${role} ${action}`).toThrow(ServiceError);
      }
    }
  });

  it("names the role needed, and for a key the key's own role", () => {
    expect(() => authorize(context('viewer', 'session'), 'domains.write')).toThrow(/Member role or higher/);
    expect(() => authorize(context('member', 'api-key'), 'webhooks.manage')).toThrow(
      /acts with its maker's current role in the workspace, Member; this call needs the Admin role/,
    );
  });
});
