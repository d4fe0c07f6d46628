import { describe, expect, it } from 'vitest';
import { getPlan } from '../../../src/model/plans.ts';
import {
  can,
  dashboardLink,
  ROLE_NEEDED,
  WORKSPACE_MESSAGES,
  WORKSPACE_ROLES,
  type WorkspaceAction,
  type WorkspaceRole,
} from '../../../src/model/workspaces.ts';

// The roles as the Teams issue words them, written out action by action.
const ALLOWED: Record<WorkspaceRole, WorkspaceAction[]> = {
  viewer: ['read'],
  member: ['read', 'domains.write', 'scans.start', 'findings.accept'],
  admin: [
    'read',
    'domains.write',
    'scans.start',
    'findings.accept',
    'members.manage',
    'dns-connections.manage',
    'cloud-accounts.manage',
    'api-keys.manage',
    'webhooks.manage',
    'integrations.manage',
  ],
  owner: Object.keys(ROLE_NEEDED) as WorkspaceAction[],
};

describe('the role rule table', () => {
  for (const role of WORKSPACE_ROLES) {
    for (const action of Object.keys(ROLE_NEEDED) as WorkspaceAction[]) {
      const allowed = ALLOWED[role].includes(action);
      it(`${role} ${allowed ? 'may' : 'may not'} ${action}`, () => {
        expect(can(role, action)).toBe(allowed);
      });
    }
  }

  it('names the least role an action needs', () => {
    expect(WORKSPACE_MESSAGES.roleNeeded('scans.start')).toBe(
      'This needs the Member role or higher in this workspace',
    );
    expect(WORKSPACE_MESSAGES.roleNeeded('workspace.billing')).toBe(
      'This needs the Owner role or higher in this workspace',
    );
  });
});

describe('dashboard links', () => {
  it('name their workspace, with the parameters encoded', () => {
    expect(
      dashboardLink('https://dw.example/', '/dashboard', { section: 'scans', scan: 'a b&c' }, 'ws-1'),
    ).toBe('https://dw.example/dashboard?section=scans&scan=a+b%26c&workspace=ws-1');
    expect(dashboardLink('https://dw.example/base/', '/dashboard/settings', { tab: 'dns' }, 'u-1')).toBe(
      'https://dw.example/dashboard/settings?tab=dns&workspace=u-1',
    );
  });
});

describe('where a team workspace is created', () => {
  it('says it starts on Free with its owner alone, and what plan lets one invite, from the plans table', () => {
    expect(WORKSPACE_MESSAGES.newTeamStartsFree(getPlan('free'), getPlan('intro'))).toBe(
      'A team workspace starts on the Free plan: 1 member (you), its domains and scans counted against a Free allowance. To invite anyone, give it a plan of its own once it is made: Intro, $4.99/month, up to 3 members (Settings → Plan).',
    );
  });
});
