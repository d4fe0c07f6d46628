import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { CLOUD_NAMES, type CloudId } from '../../connectors/cloud/provider.ts';
import { cloudAccounts, dnsConnections, integrations, webhooks } from '../../db/schema.ts';
import { CONNECTION_MESSAGES } from '../../model/connections.ts';
import type { RefusalCode } from '../../model/messages.ts';
import { WEBHOOK_MESSAGES } from '../../model/webhooks.ts';
import type { WorkspaceAction } from '../../model/workspaces.ts';
import type { ChangeAction } from '../audit.ts';
import { CLOUD_ACCOUNT_LIMIT, DNS_CONNECTION_LIMIT, INTEGRATION_LIMIT, WEBHOOK_LIMIT } from '../limits.ts';

/** A row of each kind, as its service reads it. */
export interface RowOf {
  dns: typeof dnsConnections.$inferSelect;
  cloud: typeof cloudAccounts.$inferSelect;
  integration: typeof integrations.$inferSelect;
  webhook: typeof webhooks.$inferSelect;
}

/** The outside credentials a workspace holds, each kind with one lifecycle (this folder). */
export const CONNECTION_KINDS = ['dns', 'cloud', 'integration', 'webhook'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export interface KindSpec<Row = unknown> {
  table: PgTable;
  id: PgColumn;
  workspaceId: PgColumn;
  createdAt: PgColumn;
  /** The member who answers for it (connected or last re-enabled it). */
  answeredBy: PgColumn;
  disabledAt: PgColumn;
  /** How a mail to the owners names one. */
  name: SQL;
  /** Who may connect, change, re-enable and remove one; a member who drops below it stops answering. */
  permission: WorkspaceAction;
  noun: string;
  plural: string;
  /** The Settings tab that lists them, and its name in words. */
  tab: string;
  tabName: string;
  /** The refusal of what only a live one does (a read, a test) while it is disabled. */
  disabledCode: RefusalCode;
  disabledMessage: string;
  /** What the audit log calls its removal, and says of one (never its credential). */
  removed: ChangeAction;
  detail: (row: Row) => Record<string, unknown>;
  /** How many one workspace holds at most, and the code of the refusal past it. */
  limit: number;
  limitCode: RefusalCode;
}

export const KINDS: { [K in ConnectionKind]: KindSpec<RowOf[K]> } = {
  dns: {
    table: dnsConnections,
    id: dnsConnections.id,
    workspaceId: dnsConnections.workspaceId,
    createdAt: dnsConnections.createdAt,
    answeredBy: dnsConnections.answeredBy,
    disabledAt: dnsConnections.disabledAt,
    name: sql`${dnsConnections.label} || ' (' || ${dnsConnections.provider} || ' DNS)'`,
    permission: 'dns-connections.manage',
    noun: 'DNS connection',
    plural: 'DNS connections',
    disabledCode: 'CONNECTION_DISABLED',
    disabledMessage: CONNECTION_MESSAGES.disabled('DNS connection'),
    removed: 'dns.disconnected',
    detail: (row) => ({ connectionId: row.id, provider: row.provider, label: row.label }),
    tab: 'dns',
    tabName: 'Settings → DNS',
    limit: DNS_CONNECTION_LIMIT,
    limitCode: 'DNS_CONNECTION_LIMIT',
  },
  cloud: {
    table: cloudAccounts,
    id: cloudAccounts.id,
    workspaceId: cloudAccounts.workspaceId,
    createdAt: cloudAccounts.createdAt,
    answeredBy: cloudAccounts.answeredBy,
    disabledAt: cloudAccounts.disabledAt,
    name: sql`${cloudAccounts.label} || ' (' || ${cloudAccounts.provider} || ')'`,
    permission: 'cloud-accounts.manage',
    noun: 'cloud account',
    plural: 'cloud accounts',
    disabledCode: 'CONNECTION_DISABLED',
    disabledMessage: CONNECTION_MESSAGES.disabled('cloud account'),
    removed: 'cloud.disconnected',
    detail: (row) => ({
      cloudAccountId: row.id,
      provider: CLOUD_NAMES[row.provider as CloudId] ?? row.provider,
      label: row.label,
    }),
    tab: 'cloud',
    tabName: 'Settings → Cloud',
    limit: CLOUD_ACCOUNT_LIMIT,
    limitCode: 'CLOUD_ACCOUNT_LIMIT',
  },
  integration: {
    table: integrations,
    id: integrations.id,
    workspaceId: integrations.workspaceId,
    createdAt: integrations.createdAt,
    answeredBy: integrations.createdBy,
    disabledAt: integrations.disabledAt,
    name: sql`${integrations.label} || ' (' || ${integrations.kind} || ')'`,
    permission: 'integrations.manage',
    noun: 'integration',
    plural: 'integrations',
    disabledCode: 'CONNECTION_DISABLED',
    disabledMessage: CONNECTION_MESSAGES.disabled('integration'),
    removed: 'integration.removed',
    detail: (row) => ({ integrationId: row.id, kind: row.kind, label: row.label }),
    tab: 'integrations',
    tabName: 'Settings → Integrations',
    limit: INTEGRATION_LIMIT,
    limitCode: 'INTEGRATION_LIMIT',
  },
  webhook: {
    table: webhooks,
    id: webhooks.id,
    workspaceId: webhooks.workspaceId,
    createdAt: webhooks.createdAt,
    answeredBy: webhooks.createdBy,
    disabledAt: webhooks.disabledAt,
    name: sql`${webhooks.url}`,
    permission: 'webhooks.manage',
    noun: 'webhook',
    plural: 'webhooks',
    disabledCode: 'WEBHOOK_DISABLED',
    disabledMessage: WEBHOOK_MESSAGES.disabledTest,
    removed: 'webhook.removed',
    // Its host, never the path that may carry a token.
    detail: (row) => ({ webhookId: row.id, host: new URL(row.url).host, format: row.format }),
    tab: 'alerts',
    tabName: 'Settings → Alerts',
    limit: WEBHOOK_LIMIT,
    limitCode: 'WEBHOOK_LIMIT',
  },
};
