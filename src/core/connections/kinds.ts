import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { cloudAccounts, dnsConnections, integrations, webhooks } from '../../db/schema.ts';
import type { RefusalCode } from '../../model/messages.ts';
import type { WorkspaceAction } from '../../model/workspaces.ts';
import { CLOUD_ACCOUNT_LIMIT, DNS_CONNECTION_LIMIT, INTEGRATION_LIMIT, WEBHOOK_LIMIT } from '../limits.ts';

/** The outside credentials a workspace holds, each kind with one lifecycle (this folder). */
export const CONNECTION_KINDS = ['dns', 'cloud', 'integration', 'webhook'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export interface KindSpec {
  table: PgTable;
  id: PgColumn;
  workspaceId: PgColumn;
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
  /** How many one workspace holds at most, and the code of the refusal past it. */
  limit: number;
  limitCode: RefusalCode;
}

export const KINDS: Record<ConnectionKind, KindSpec> = {
  dns: {
    table: dnsConnections,
    id: dnsConnections.id,
    workspaceId: dnsConnections.workspaceId,
    answeredBy: dnsConnections.answeredBy,
    disabledAt: dnsConnections.disabledAt,
    name: sql`${dnsConnections.label} || ' (' || ${dnsConnections.provider} || ' DNS)'`,
    permission: 'dns-connections.manage',
    noun: 'DNS connection',
    plural: 'DNS connections',
    tab: 'dns',
    tabName: 'Settings → DNS',
    limit: DNS_CONNECTION_LIMIT,
    limitCode: 'DNS_CONNECTION_LIMIT',
  },
  cloud: {
    table: cloudAccounts,
    id: cloudAccounts.id,
    workspaceId: cloudAccounts.workspaceId,
    answeredBy: cloudAccounts.answeredBy,
    disabledAt: cloudAccounts.disabledAt,
    name: sql`${cloudAccounts.label} || ' (' || ${cloudAccounts.provider} || ')'`,
    permission: 'cloud-accounts.manage',
    noun: 'cloud account',
    plural: 'cloud accounts',
    tab: 'cloud',
    tabName: 'Settings → Cloud',
    limit: CLOUD_ACCOUNT_LIMIT,
    limitCode: 'CLOUD_ACCOUNT_LIMIT',
  },
  integration: {
    table: integrations,
    id: integrations.id,
    workspaceId: integrations.workspaceId,
    answeredBy: integrations.createdBy,
    disabledAt: integrations.disabledAt,
    name: sql`${integrations.label} || ' (' || ${integrations.kind} || ')'`,
    permission: 'integrations.manage',
    noun: 'integration',
    plural: 'integrations',
    tab: 'integrations',
    tabName: 'Settings → Integrations',
    limit: INTEGRATION_LIMIT,
    limitCode: 'INTEGRATION_LIMIT',
  },
  webhook: {
    table: webhooks,
    id: webhooks.id,
    workspaceId: webhooks.workspaceId,
    answeredBy: webhooks.createdBy,
    disabledAt: webhooks.disabledAt,
    name: sql`${webhooks.url}`,
    permission: 'webhooks.manage',
    noun: 'webhook',
    plural: 'webhooks',
    tab: 'alerts',
    tabName: 'Settings → Alerts',
    limit: WEBHOOK_LIMIT,
    limitCode: 'WEBHOOK_LIMIT',
  },
};
