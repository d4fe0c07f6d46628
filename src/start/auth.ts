import type { Logger } from 'pino';
import { DEMO_PROJECT_ID, demoFirebaseConfig, validateFirebaseConfig } from '../model/firebase-config.ts';
import { startAuthEmulator } from '../server/auth/emulator.ts';
import type { AuthDeps } from '../server/auth/middleware.ts';
import { firebaseTokenVerifier } from '../server/auth/verifier.ts';
import type { Config } from './config.ts';

interface AuthSetup {
  deps: AuthDeps;
  /** What the content-security policy must allow for sign-in. */
  csp: { authDomain?: string; authEmulatorOrigin?: string };
  stop(): Promise<void>;
}

/**
 * Chooses the sign-in backend from the configuration:
 * - FIREBASE_AUTH_EMULATOR_HOST set: that running emulator (with the project named, else the demo one);
 * - a real project's PUBLIC_FIREBASE_* given: Firebase itself;
 * - neither: start the Auth Emulator on AUTH_EMULATOR_PORT, so sign-in works on a fresh machine.
 */
export async function setupAuth(config: Config, logger: Logger): Promise<AuthSetup> {
  const real = config.PUBLIC_FIREBASE_API_KEY
    ? validateFirebaseConfig({
        apiKey: config.PUBLIC_FIREBASE_API_KEY,
        authDomain: config.PUBLIC_FIREBASE_AUTH_DOMAIN,
        projectId: config.PUBLIC_FIREBASE_PROJECT_ID,
        messagingSenderId: config.PUBLIC_FIREBASE_MESSAGING_SENDER_ID,
        appId: config.PUBLIC_FIREBASE_APP_ID,
      })
    : undefined;
  let emulatorHost = config.FIREBASE_AUTH_EMULATOR_HOST;
  let stopEmulator = async () => {};
  if (!real && !emulatorHost) {
    logger.info(
      { port: config.AUTH_EMULATOR_PORT },
      'no Firebase project configured: starting the Auth Emulator',
    );
    const emulator = await startAuthEmulator({
      port: config.AUTH_EMULATOR_PORT,
      projectId: DEMO_PROJECT_ID,
      onOutput: (line) => logger.debug({ emulator: line }, 'auth emulator'),
    });
    emulatorHost = emulator.host;
    stopEmulator = () => emulator.stop();
    logger.info({ origin: emulator.origin }, 'Auth Emulator ready');
  }
  if (emulatorHost) {
    // firebase-admin reads the variable itself when it verifies tokens.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  }
  const firebase = real ?? demoFirebaseConfig(config.PUBLIC_FIREBASE_PROJECT_ID ?? DEMO_PROJECT_ID);
  const emulatorOrigin = emulatorHost ? `http://${emulatorHost}` : undefined;
  const verifier = firebaseTokenVerifier(firebase.projectId, {
    cacheMs: config.AUTH_TOKEN_CACHE_SECONDS * 1000,
  });
  return {
    deps: {
      verifier,
      publicConfig: { firebase, ...(emulatorOrigin ? { emulatorUrl: emulatorOrigin } : {}) },
    },
    csp: { authDomain: firebase.authDomain, authEmulatorOrigin: emulatorOrigin },
    stop: async () => {
      await verifier.close();
      await stopEmulator();
    },
  };
}
