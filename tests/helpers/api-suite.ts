import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Database, Db } from '../../src/db/client.ts';
import { demoFirebaseConfig } from '../../src/model/firebase-config.ts';
import type { AppDeps } from '../../src/server/app.ts';
import type { AuthDeps } from '../../src/server/auth/middleware.ts';
import { firebaseTokenVerifier, type TokenVerifier } from '../../src/server/auth/verifier.ts';
import { apiCaller } from './api.ts';
import { testApp } from './app.ts';
import type { DatabaseBackend } from './databases.ts';
import { type MintedUser, mintIdToken, TEST_PROJECT_ID, waitForAuthEmulator } from './emulator.ts';

type Claims = Omit<Parameters<typeof mintIdToken>[1], 'sub'>;
type TestApp = ReturnType<typeof testApp>;

interface SignInOptions {
  provider?: 'google.com' | 'github.com';
  /**
   * Make the account with POST /auth/verify, as the browser signs in, which also records the
   * sign-in in the audit log; without it GET /auth/user makes the account and records nothing.
   */
  verify?: boolean;
}

/** What the app is made with besides the database; `auth` is laid over the emulator's. */
type AppOptions = Omit<Partial<AppDeps>, 'auth'> & { auth?: Partial<AuthDeps> };

export interface ApiSuite {
  /** Open from the suite's beforeAll to its afterAll, as are the verifier, auth and app. */
  readonly database: Database;
  /** `database.db`: what most tests read and write through. */
  readonly db: Db;
  readonly verifier: TokenVerifier;
  /** Sign-in through the run's emulator: for a second app on the same database. */
  readonly auth: AuthDeps;
  readonly app: TestApp;
  /** apiCaller of the app. */
  readonly call: ReturnType<typeof apiCaller>;
  /** Tells this suite's names (accounts, domains, e-mails) from those of other suites and runs. */
  readonly tag: string;
  readonly emulatorHost: string;
  /** An ID token for the emulator account `<name>-<tag>`, with no account of ours made. */
  mint(name: string, claims?: Claims, provider?: SignInOptions['provider']): Promise<MintedUser>;
  /** An ID token, and the account it signs in to. */
  signIn(name: string, claims?: Claims, options?: SignInOptions): Promise<MintedUser>;
}

/**
 * The set-up every API suite shares, for use inside its `describe`: before its tests a fresh
 * database of `backend`, a verifier of the run's Auth Emulator and the app on both; after them,
 * both closed. `app` are the app's other dependencies, or a function that gives them when the app
 * is made: after the hooks registered before this call, so it can read fixtures they started, or
 * start them itself.
 */
export function apiSuite(
  backend: DatabaseBackend,
  app: AppOptions | (() => AppOptions | Promise<AppOptions>) = {},
): ApiSuite {
  const emulatorHost = inject('authEmulatorHost');
  // firebase-admin reads this when it verifies: with it, the emulator's unsigned tokens are accepted.
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  const opened: { database?: Database; verifier?: TokenVerifier; auth?: AuthDeps; app?: TestApp } = {};
  const need = <K extends keyof typeof opened>(key: K): NonNullable<(typeof opened)[K]> => {
    const value = opened[key];
    if (!value) throw new Error(`apiSuite makes its ${key} in beforeAll: read it from a hook or a test`);
    return value;
  };

  beforeAll(async () => {
    await waitForAuthEmulator(emulatorHost);
    opened.database = await backend.open();
    opened.verifier = firebaseTokenVerifier(TEST_PROJECT_ID);
    const { auth, ...rest } = typeof app === 'function' ? await app() : app;
    opened.auth = { verifier: opened.verifier, publicConfig: { firebase: demoFirebaseConfig() }, ...auth };
    opened.app = testApp(opened.database, { auth: opened.auth, ...rest });
  });
  afterAll(async () => {
    await opened.verifier?.close();
    await opened.database?.close();
  });

  const call = apiCaller({ request: (path, init) => need('app').request(path, init) });
  // Random, not the clock: suites in parallel workers may start in the same millisecond.
  const tag = `${backend.name}-${randomBytes(5).toString('hex')}`.toLowerCase();
  const mint = (name: string, claims: Claims = {}, provider?: SignInOptions['provider']) =>
    mintIdToken(emulatorHost, { sub: `${name}-${tag}`, ...claims }, provider);
  return {
    get database() {
      return need('database');
    },
    get db() {
      return need('database').db;
    },
    get verifier() {
      return need('verifier');
    },
    get auth() {
      return need('auth');
    },
    get app() {
      return need('app');
    },
    call,
    tag,
    emulatorHost,
    mint,
    async signIn(name, claims, options = {}) {
      const user = await mint(name, claims, options.provider);
      const res = options.verify
        ? await call('/auth/verify', { method: 'POST', token: user.idToken })
        : await call('/auth/user', { token: user.idToken });
      if (!res.ok) throw new Error(`signing ${name} in answered ${res.status}: ${await res.text()}`);
      return user;
    },
  };
}
