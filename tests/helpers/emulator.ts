import { DEMO_PROJECT_ID } from '../../src/model/firebase-config.ts';

/** Resolves once the run's emulator (tests/helpers/emulator-setup.ts) answers. */
export async function waitForAuthEmulator(emulatorHost: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://${emulatorHost}/`, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The Firebase Auth Emulator at ${emulatorHost} did not start within ${timeoutMs} ms`);
}

export interface MintedUser {
  idToken: string;
  uid: string;
}

/**
 * fetch, asked once more when the emulator closed a kept-alive connection just as it was reused
 * (undici's 'other side closed'): a race of idle timeouts on a loaded machine, not an answer.
 */
async function fetchRetryingClosedSockets(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

/**
 * Signs a user in through the emulator's REST API, as the popup would: `accounts:signInWithIdp`
 * with an unsigned id_token that the emulator takes at face value.
 */
export async function mintIdToken(
  emulatorHost: string,
  claims: { sub: string; email?: string; name?: string; picture?: string; email_verified?: boolean },
  providerId: 'google.com' | 'github.com' = 'google.com',
): Promise<MintedUser> {
  const idToken = JSON.stringify({ email_verified: true, ...claims });
  const res = await fetchRetryingClosedSockets(
    `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        postBody: `id_token=${encodeURIComponent(idToken)}&providerId=${providerId}`,
        requestUri: 'http://localhost',
        returnIdpCredential: true,
        returnSecureToken: true,
      }),
    },
  );
  if (!res.ok) throw new Error(`signInWithIdp answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { idToken: string; localId: string };
  return { idToken: body.idToken, uid: body.localId };
}

/** Disables an account through the emulator's admin API ('Bearer owner' is its admin credential). */
export async function disableUser(emulatorHost: string, uid: string): Promise<void> {
  const res = await fetch(
    `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/projects/${DEMO_PROJECT_ID}/accounts:update`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({ localId: uid, disableUser: true }),
    },
  );
  if (!res.ok) throw new Error(`accounts:update answered ${res.status}: ${await res.text()}`);
}

/** The same token with its claims rewritten: the emulator's tokens are unsigned, so this is easy. */
export function rewriteToken(idToken: string, change: (claims: Record<string, unknown>) => void): string {
  const [header, payload] = idToken.split('.');
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
  change(claims);
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
}

export const TEST_PROJECT_ID = DEMO_PROJECT_ID;
