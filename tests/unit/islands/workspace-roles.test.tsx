import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthProvider } from '../../../src/islands/auth/auth-context.tsx';
import { DomainCard } from '../../../src/islands/dashboard/domains/DomainCard.tsx';
import { ScanCard } from '../../../src/islands/dashboard/scans/ScanCard.tsx';
import { DataTab } from '../../../src/islands/dashboard/settings/DataTab.tsx';
import {
  type MemberActions,
  MembersView,
  roleChangeEffects,
} from '../../../src/islands/dashboard/settings/MembersPanel.tsx';
import { acceptFailure } from '../../../src/islands/dashboard/workspaces/AcceptInvitation.tsx';
import { $workspaceId, $workspaces } from '../../../src/lib/dashboard/workspaces.ts';
import { errorFromResponse } from '../../../src/lib/request/errors.ts';
import type { DomainView } from '../../../src/model/contract.ts';
import { HELD_CREDENTIALS } from '../../../src/model/held-credentials.ts';
import { getPlan } from '../../../src/model/plans.ts';
import {
  type MembersResponse,
  type MemberView,
  WORKSPACE_MESSAGES,
  type WorkspaceRole,
  type WorkspaceView,
} from '../../../src/model/workspaces.ts';
import { domainView } from '../../fixtures/domain-view.ts';
import { completedScan } from '../../fixtures/scan-view.ts';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
const idle = async () => {};
const actions: MemberActions = {
  invite: idle,
  revoke: idle,
  setRole: idle,
  setAlerts: idle,
  remove: idle,
  rename: idle,
  deleteWorkspace: idle,
};

const team = (role: WorkspaceRole): WorkspaceView => ({
  id: 'ws-1',
  name: 'Acme Security',
  personal: false,
  role,
  plan: 'intro',
  memberCount: 2,
});
const data: MembersResponse = {
  members: [
    {
      userId: 'u-olive',
      email: 'olive@acme.io',
      displayName: 'Olive',
      role: 'owner',
      alertsEmail: true,
      joinedAt: '2026-11-01T10:00:00Z',
    },
    {
      userId: 'u-cleo',
      email: 'cleo@acme.io',
      displayName: 'Cleo',
      role: 'viewer',
      alertsEmail: true,
      joinedAt: '2026-11-02T10:00:00Z',
    },
  ],
  invitations: [{ id: 'inv-1', email: 'dan@acme.io', role: 'member', expiresAt: '2026-11-30T10:00:00Z' }],
};
const members = (workspace: WorkspaceView, me: string, shown: MembersResponse = data) =>
  renderToStaticMarkup(<MembersView workspace={workspace} data={shown} me={me} actions={actions} />);

afterEach(() => {
  $workspaceId.set(null);
  $workspaces.set({ workspaces: [], loaded: false, error: null });
});

describe('Members', () => {
  it("an owner manages: invites, resends and revokes, changes roles, removes; the plan's seats counted with invitations", () => {
    const html = members(team('owner'), 'u-olive');
    const words = text(html);
    expect(words).toContain('3 of 3 members');
    expect(html).toContain('aria-label="Resend invitation to dan@acme.io"');
    expect(html).toContain('aria-label="Revoke invitation to dan@acme.io"');
    expect(html).toContain('aria-label="Remove Cleo"');
    expect(html).toMatch(/<label[^>]*>Role of Cleo<\/label>/);
    // The owner's own row: removing or re-roling oneself is not offered.
    expect(html).not.toContain('aria-label="Remove Olive"');
  });

  it('offers the invite form while a seat is free, and once none is, the limit and the way to more instead', () => {
    const roomy = { ...data, invitations: [] };
    expect(members(team('owner'), 'u-olive', roomy)).toContain('aria-label="Invite a member"');
    const full = members(team('owner'), 'u-olive');
    expect(full).not.toContain('aria-label="Invite a member"');
    expect(text(full)).toContain(
      `${WORKSPACE_MESSAGES.memberLimit('Intro', 3)}. See the plans for Acme Security`,
    );
    expect(full).toContain('href="/dashboard?section=settings&amp;tab=plan"');
  });

  it('a team workspace on Free says, before any address is typed, that it is just its owner until upgraded', () => {
    const onFree = { ...team('owner'), plan: 'free' as const };
    const html = members(onFree, 'u-olive', { members: data.members.slice(0, 1), invitations: [] });
    expect(html).not.toContain('aria-label="Invite a member"');
    expect(text(html)).toContain(
      "The Free plan allows 1 member in a workspace, invitations included; upgrade the workspace's plan to add more.",
    );
  });

  it("a role change's dialog says what happens to the member's API keys, and below admin to their webhooks", () => {
    expect(roleChangeEffects('member', 'viewer')).toContain(
      'The API keys they made follow the new role from their next call: they can read, but no longer start scans.',
    );
    expect(roleChangeEffects('viewer', 'member')).toContain('a key reads and starts scans at most');
    for (const role of ['member', 'viewer'] as const) {
      expect(roleChangeEffects('admin', role)).toContain(
        'The webhooks they added are disabled (the owners get an e-mail',
      );
    }
    expect(roleChangeEffects('member', 'viewer')).not.toContain('webhooks');
    expect(roleChangeEffects('member', 'admin')).not.toContain('webhooks');
  });

  it('an owner renames and deletes the workspace; its only owner leaves only after handing it over', () => {
    const html = members(team('owner'), 'u-olive');
    const words = text(html);
    expect(html).toContain('data-testid="workspace-card"');
    expect(html).toContain('aria-label="Rename"');
    expect(html).toMatch(/<input[^>]*value="Acme Security"/);
    expect(words).toContain('Delete workspace');
    expect(words).not.toContain('Leave workspace');
    expect(words).toContain('You are its only owner: to leave it, make another member owner first.');
    const twoOwners = {
      ...data,
      members: data.members.map((m) => (m.userId === 'u-cleo' ? { ...m, role: 'owner' as const } : m)),
    };
    const shared = text(members(team('owner'), 'u-olive', twoOwners));
    expect(shared).toContain('Leave workspace');
    expect(shared).toContain('Delete workspace');
    expect(shared).not.toContain('only owner');
  });

  it('an admin neither renames nor deletes the workspace, and may leave it', () => {
    const html = members(team('admin'), 'u-admin', {
      ...data,
      members: [...data.members, { ...(data.members[1] as MemberView), userId: 'u-admin', role: 'admin' }],
    });
    expect(html).not.toContain('aria-label="Rename"');
    expect(text(html)).not.toContain('Delete workspace');
    expect(text(html)).toContain('Leave workspace');
  });

  it('an admin manages members but not an owner, and cannot make anyone owner', () => {
    const html = members(team('admin'), 'u-admin');
    expect(html).toContain('aria-label="Remove Cleo"');
    expect(html).not.toContain('aria-label="Remove Olive"');
    expect(html).not.toMatch(/<option value="owner"/);
  });

  it('a viewer reads the list, and may only leave', () => {
    const html = members(team('viewer'), 'u-cleo');
    const words = text(html);
    expect(words).toContain('olive@acme.io');
    expect(words).toContain('dan@acme.io');
    expect(html).not.toContain('Invite a member');
    expect(html).not.toContain('Resend');
    expect(html).not.toContain('Revoke');
    expect(html).not.toContain('aria-label="Remove');
    expect(html).not.toContain('<select');
    expect(words).toContain('Leave workspace');
    expect(words).not.toContain('Delete workspace');
    expect(html).not.toContain('aria-label="Rename"');
    // Every member chooses their own e-mail alerts; the checkbox shows theirs.
    expect(words).toContain("E-mail me when this workspace's scans find changes");
    expect(html).toMatch(/<input type="checkbox" checked=""/);
  });

  it('a personal workspace: no invitations, no leaving, and why', () => {
    const personal = { ...team('owner'), personal: true, plan: 'free' as const };
    const html = members(personal, 'u-olive');
    expect(text(html)).toContain('of 1 member');
    expect(text(html)).toContain(WORKSPACE_MESSAGES.personal);
    expect(html).not.toContain('Invite a member');
    expect(html).not.toContain('Leave workspace');
    expect(html).not.toContain('Delete workspace');
    expect(html).not.toContain('workspace-card');
  });
});

describe('scan actions by role', () => {
  const card = (role: WorkspaceRole) => {
    $workspaces.set({ workspaces: [team(role)], loaded: true, error: null });
    $workspaceId.set('ws-1');
    return text(
      renderToStaticMarkup(<ScanCard scan={completedScan} onUpdate={() => {}} onViewDetails={() => {}} />),
    );
  };
  it('a member may re-scan; a viewer sees the scan without it', () => {
    expect(card('member')).toContain('Re-scan');
    expect(card('viewer')).not.toContain('Re-scan');
    expect(card('viewer')).toContain('View Details');
  });

  const domainCard = (role: WorkspaceRole, domain: DomainView) => {
    $workspaces.set({ workspaces: [team(role)], loaded: true, error: null });
    $workspaceId.set('ws-1');
    const html = renderToStaticMarkup(
      <DomainCard
        domain={domain}
        serviceDown={false}
        now={Date.parse('2026-11-22T11:00:00Z')}
        onRemove={() => {}}
      />,
    );
    return [...html.matchAll(/<button[^>]*>(.*?)<\/button>/gs)].map((m) => text(m[1] ?? '').trim());
  };

  it("regression: a viewer's domain card offers no Rescan, Verify or Remove, which the API would refuse", () => {
    expect(domainCard('member', domainView())).toContain('Rescan');
    expect(domainCard('viewer', domainView())).not.toContain('Rescan');
    expect(domainCard('member', domainView({ status: 'pending', proof: null }))).toEqual(
      expect.arrayContaining(['Remove', 'Verify DNS']),
    );
    const pending = domainCard('viewer', domainView({ status: 'pending', proof: null }));
    expect(pending).not.toContain('Remove');
    expect(pending).not.toContain('Verify DNS');
    const failed = domainCard('viewer', domainView({ status: 'failed', proof: null }));
    expect(failed).not.toContain('Retry Verify');
    expect(failed).not.toContain('Remove');
  });
});

describe('accepting an invitation', () => {
  const refusal = (status: number, error: string, code = 'X') =>
    acceptFailure(errorFromResponse(status, '', { error, code, statusCode: status }, new Headers()));
  it("says in plain words why: another address or an unverified one (403, signing in again mends both), a link that no longer works (410), in the server's words", () => {
    expect(refusal(403, WORKSPACE_MESSAGES.invitationWrongEmail, 'WRONG_ACCOUNT')).toEqual({
      title: 'This invitation is for another address',
      message: WORKSPACE_MESSAGES.invitationWrongEmail,
      signInAgain: true,
    });
    expect(refusal(403, WORKSPACE_MESSAGES.invitationUnverifiedEmail, 'EMAIL_NOT_VERIFIED')).toEqual({
      title: 'Your e-mail address is not verified',
      message: WORKSPACE_MESSAGES.invitationUnverifiedEmail,
      signInAgain: true,
    });
    expect(refusal(410, WORKSPACE_MESSAGES.invitationGone)).toEqual({
      title: 'This invitation link no longer works',
      message: WORKSPACE_MESSAGES.invitationGone,
    });
  });
});

describe('Settings → Data', () => {
  it('lists every kind of credential we hold, what it can do, how it is kept and removed', () => {
    const data = text(renderToStaticMarkup(<AuthProvider>{<DataTab />}</AuthProvider>));
    for (const held of HELD_CREDENTIALS) {
      expect(data).toContain(held.name);
      expect(data).toContain(held.can);
      expect(data).toContain(held.kept);
      expect(data).toContain(held.removed);
    }
    expect(data).not.toContain('never hold credentials');
  });

  it("gives the scans' retention of the current workspace's plan, not the account's", () => {
    const data = () => text(renderToStaticMarkup(<AuthProvider>{<DataTab />}</AuthProvider>));
    $workspaces.set({
      workspaces: [
        { ...team('owner'), id: 'u-olive', name: 'Personal', personal: true, plan: 'free' },
        { ...team('viewer'), plan: 'pro-solo' },
      ],
      loaded: true,
      error: null,
    });
    $workspaceId.set('ws-1');
    const pro = getPlan('pro-solo');
    expect(data()).toContain(
      `Scan results are kept ${pro.limits.retentionDays} days on the plan of Acme Security (${pro.name})`,
    );
    $workspaceId.set('u-olive');
    const free = getPlan('free');
    expect(data()).toContain(
      `Scan results are kept ${free.limits.retentionDays} days on your plan (${free.name})`,
    );
  });
});
