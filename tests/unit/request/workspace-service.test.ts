import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { workspaceService } from '../../../src/lib/request/api.ts';
import { createApiClient } from '../../../src/lib/request/client.ts';
import { serverMessage } from '../../../src/lib/request/errors.ts';
import { WORKSPACE_MESSAGES } from '../../../src/model/workspaces.ts';

/** A real server on loopback: it records each call and answers with `reply`. */
let server: Server;
let baseUrl: string;
let reply: { status: number; body: unknown } = { status: 200, body: {} };
const seen: { method: string; url: string; body: string; workspace: unknown }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        body,
        workspace: req.headers['x-workspace-id'],
      });
      if (reply.status === 204) res.writeHead(204).end();
      else
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  reply = { status: 200, body: {} };
});

const api = () =>
  workspaceService(createApiClient({ baseUrl, getToken: async () => 'token', onUnauthorized: () => {} }));

describe('workspaceService', () => {
  it('calls the contract: rename, members, invitations (resend is another invite), roles, removal, accept, delete', async () => {
    const ws = api();
    await ws.rename('ws/1', 'Acme Inc');
    await ws.members('ws/1');
    await ws.invite('ws/1', 'dan@acme.io', 'viewer');
    await ws.setRole('ws/1', 'u-2', 'admin');
    await ws.accept('tok-1');
    reply = { status: 204, body: null };
    await ws.revokeInvitation('ws/1', 'inv-1');
    await ws.removeMember('ws/1', 'u-2');
    await ws.remove('ws/1');
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['PATCH', '/api/workspaces/ws%2F1', '{"name":"Acme Inc"}'],
      ['GET', '/api/workspaces/ws%2F1/members', ''],
      ['POST', '/api/workspaces/ws%2F1/invitations', '{"email":"dan@acme.io","role":"viewer"}'],
      ['PATCH', '/api/workspaces/ws%2F1/members/u-2', '{"role":"admin"}'],
      ['POST', '/api/invitations/accept', '{"token":"tok-1"}'],
      ['DELETE', '/api/workspaces/ws%2F1/invitations/inv-1', ''],
      ['DELETE', '/api/workspaces/ws%2F1/members/u-2', ''],
      ['DELETE', '/api/workspaces/ws%2F1', ''],
    ]);
    // They name the workspace in the path: no header.
    expect(seen.every((s) => s.workspace === undefined)).toBe(true);
  });

  it("keeps the server's own words for a 403 (the role needed) and a 409 (the member limit)", async () => {
    const roleNeeded = WORKSPACE_MESSAGES.roleNeeded('members.manage');
    reply = { status: 403, body: { error: roleNeeded, code: 'FORBIDDEN', statusCode: 403 } };
    const denied = await api()
      .invite('ws-1', 'dan@acme.io', 'member')
      .catch((error: unknown) => error);
    expect(serverMessage(denied)).toBe(roleNeeded);
    const limit = WORKSPACE_MESSAGES.memberLimit('Intro', 3);
    reply = { status: 409, body: { error: limit, code: 'MEMBER_LIMIT', statusCode: 409 } };
    const full = await api()
      .invite('ws-1', 'dan@acme.io', 'member')
      .catch((error: unknown) => error);
    expect(serverMessage(full)).toBe(limit);
  });
});
