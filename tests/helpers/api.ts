import { expect } from 'vitest';
import { apiErrorBodySchema } from '../../src/model/api-error.ts';
import { WORKSPACE_HEADER } from '../../src/model/workspaces.ts';

interface RequestTarget {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

/** Calls the app as the browser's request layer does: JSON body, bearer token, the workspace named. */
export function apiCaller(app: RequestTarget) {
  return (path: string, init: { method?: string; token?: string; body?: unknown; workspace?: string } = {}) =>
    app.request(path, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.workspace ? { [WORKSPACE_HEADER]: init.workspace } : {}),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
}

/** Asserts the spec's error body: status, message word for word, and the code when given. */
export async function expectError(res: Response, status: number, message: string, code?: string) {
  expect(res.status).toBe(status);
  const body = apiErrorBodySchema.parse(await res.json());
  expect(body.error).toBe(message);
  expect(body.statusCode).toBe(status);
  if (code) expect(body.code).toBe(code);
  return body;
}
