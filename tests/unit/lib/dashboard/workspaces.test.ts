// @vitest-environment happy-dom
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { $domains, $scansRevision } from '../../../../src/lib/dashboard/store.ts';
import {
  $currentWorkspace,
  $workspaceId,
  $workspaces,
  addWorkspace,
  forgetWorkspace,
  loadWorkspaces,
  switchWorkspace,
  WORKSPACE_STORAGE_KEY,
  workspaceGone,
} from '../../../../src/lib/dashboard/workspaces.ts';
import { domainService, workspaceService } from '../../../../src/lib/request/api.ts';
import { createApiClient } from '../../../../src/lib/request/client.ts';
import { $toasts } from '../../../../src/lib/toast.ts';
import { WORKSPACE_MESSAGES, type WorkspaceView } from '../../../../src/model/workspaces.ts';

const personal: WorkspaceView = {
  id: 'u-1',
  name: 'Ada',
  personal: true,
  role: 'owner',
  plan: 'free',
  memberCount: 1,
};
const team: WorkspaceView = {
  id: 'ws-team',
  name: 'Team',
  personal: false,
  role: 'viewer',
  plan: 'intro',
  memberCount: 2,
};

const gone: WorkspaceView = { ...team, id: 'ws-gone', name: 'Gone Ltd' };

/** A real server on loopback: GET /api/workspaces lists `listed`; every request is recorded. */
let server: Server;
let baseUrl: string;
let listed: WorkspaceView[] = [];
const seen: IncomingMessage[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    // A workspace the caller was removed from, or that was deleted, since the list was read.
    if (req.headers['x-workspace-id'] === gone.id) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: WORKSPACE_MESSAGES.notFound, code: 'NOT_FOUND', statusCode: 404 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/api/workspaces') res.end(JSON.stringify({ workspaces: listed }));
    else res.end(JSON.stringify({ domains: [], quota: null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The page and the API share an origin, as on the app server (happy-dom's fetch applies CORS).
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${baseUrl}/dashboard`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  localStorage.clear();
  $workspaceId.set(null);
  $workspaces.set({ workspaces: [], loaded: false, error: null });
});

const clients = () => {
  const getToken = async () => 'token';
  return {
    // As the dashboard builds them: the scoped client sends the store's workspace, the other none.
    scoped: createApiClient({ baseUrl, getToken, workspaceId: () => $workspaceId.get() }),
    own: createApiClient({ baseUrl, getToken }),
  };
};

describe('the current workspace', () => {
  it('opens on the one remembered when the caller still belongs to it', async () => {
    listed = [personal, team];
    localStorage.setItem(WORKSPACE_STORAGE_KEY, team.id);
    await loadWorkspaces(workspaceService(clients().own));
    expect($workspaceId.get()).toBe(team.id);
    expect($currentWorkspace.get()?.role).toBe('viewer');
  });

  it('falls back to the personal one when the remembered one is gone (a removed member), and remembers that', async () => {
    listed = [team, personal].filter((w) => w.personal);
    localStorage.setItem(WORKSPACE_STORAGE_KEY, team.id);
    $domains.setKey('domains', [{ id: 'd-of-team' } as never]);
    $domains.setKey('loadedAt', '2026-11-25T00:00:00.000Z');
    const revision = $scansRevision.get();
    await loadWorkspaces(workspaceService(clients().own));
    expect($workspaceId.get()).toBe(personal.id);
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(personal.id);
    // The team's data is not shown in the personal workspace while its own loads.
    expect($domains.get()).toMatchObject({ domains: [], loadedAt: null, loading: true });
    expect($scansRevision.get()).toBe(revision + 1);
  });

  it("opens on the workspace a link names (an alert about a team's scan) over the one remembered, and takes it off the address", async () => {
    listed = [personal, team];
    localStorage.setItem(WORKSPACE_STORAGE_KEY, personal.id);
    window.history.replaceState(null, '', `/dashboard?section=scans&scan=s-1&workspace=${team.id}`);
    await loadWorkspaces(workspaceService(clients().own));
    expect($workspaceId.get()).toBe(team.id);
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(team.id);
    // The scan stays on the address for the Scans screen to open; the workspace has been used.
    expect(window.location.search).toBe('?section=scans&scan=s-1');
    // Read again (the tab regains focus) after a switch: the reader's choice stands.
    switchWorkspace(personal.id);
    await loadWorkspaces(workspaceService(clients().own));
    expect($workspaceId.get()).toBe(personal.id);
  });

  it('a link to a workspace the reader does not belong to opens their personal one', async () => {
    listed = [personal];
    window.history.replaceState(null, '', `/dashboard?section=scans&scan=s-1&workspace=${gone.id}`);
    await loadWorkspaces(workspaceService(clients().own));
    expect($workspaceId.get()).toBe(personal.id);
    expect(window.location.search).toBe('?section=scans&scan=s-1');
  });

  it('a switch, and a workspace just created, become current and are remembered', async () => {
    listed = [personal, team];
    await loadWorkspaces(workspaceService(clients().own));
    expect($workspaceId.get()).toBe(personal.id);
    switchWorkspace(team.id);
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(team.id);
    const created = { ...team, id: 'ws-new', name: 'New', role: 'owner' as const, plan: 'free' as const };
    addWorkspace(created);
    expect($workspaceId.get()).toBe('ws-new');
    expect($workspaces.get().workspaces.map((w) => w.id)).toEqual([personal.id, team.id, 'ws-new']);
  });
});

describe('X-Workspace-ID', () => {
  it('goes with every workspace-scoped call, as the current workspace changes; never with the workspace calls', async () => {
    listed = [personal, team];
    const { scoped, own } = clients();
    await domainService(scoped).list();
    expect(seen.at(-1)?.headers['x-workspace-id']).toBeUndefined();
    await loadWorkspaces(workspaceService(own));
    switchWorkspace(team.id);
    await domainService(scoped).list();
    expect(seen.at(-1)?.headers['x-workspace-id']).toBe(team.id);
    switchWorkspace(personal.id);
    await domainService(scoped).list();
    expect(seen.at(-1)?.headers['x-workspace-id']).toBe(personal.id);
    await workspaceService(own).list();
    await workspaceService(own).accept('tok');
    expect(seen.slice(-2).map((r) => [r.url, r.headers['x-workspace-id']])).toEqual([
      ['/api/workspaces', undefined],
      ['/api/invitations/accept', undefined],
    ]);
  });
});

describe('a workspace gone from under the dashboard', () => {
  it('left or deleted here: out of the list, and the personal one current at once', async () => {
    listed = [personal, team];
    await loadWorkspaces(workspaceService(clients().own));
    switchWorkspace(team.id);
    forgetWorkspace(team.id);
    expect($workspaceId.get()).toBe(personal.id);
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(personal.id);
    expect($workspaces.get().workspaces.map((w) => w.id)).toEqual([personal.id]);
  });

  it('a scoped call answering that the current workspace is not found goes home, saying why, once', async () => {
    listed = [personal, gone];
    const getToken = async () => 'token';
    let reloads = 0;
    const scoped = createApiClient({
      baseUrl,
      getToken,
      workspaceId: () => $workspaceId.get(),
      onWorkspaceGone: (id) => {
        if (workspaceGone(id)) reloads += 1;
      },
    });
    await loadWorkspaces(workspaceService(clients().own));
    switchWorkspace(gone.id);
    $toasts.set([]);
    const calls = [domainService(scoped).list(), domainService(scoped).list()];
    for (const call of calls) await expect(call).rejects.toMatchObject({ statusCode: 404 });
    expect($workspaceId.get()).toBe(personal.id);
    expect($toasts.get().map((t) => t.title)).toEqual([WORKSPACE_MESSAGES.noLongerMember('Gone Ltd')]);
    expect(reloads).toBe(1);
    // The next call acts on the personal workspace.
    await domainService(scoped).list();
    expect(seen.at(-1)?.headers['x-workspace-id']).toBe(personal.id);
  });

  it('a 404 of something else, or of a workspace no longer current, changes nothing', () => {
    listed = [personal, team];
    $workspaces.set({ workspaces: [personal, team], loaded: true, error: null });
    switchWorkspace(team.id);
    expect(workspaceGone(personal.id)).toBe(false);
    expect(workspaceGone('ws-elsewhere')).toBe(false);
    expect($workspaceId.get()).toBe(team.id);
  });
});
