/** The Firebase web configuration the browser needs, served at GET /auth/config. */
interface FirebaseWebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  messagingSenderId: string;
  appId: string;
}

export interface PublicAuthConfig {
  firebase: FirebaseWebConfig;
  /** Origin of the Firebase Auth Emulator when sign-in runs against it (development, tests). */
  emulatorUrl?: string;
}

const REQUIRED = ['apiKey', 'projectId', 'messagingSenderId', 'appId'] as const;

/**
 * The start-up checks of the sign-in configuration: every field present and well formed. The server runs them on its environment and the browser on
 * the configuration it receives, so a bad value fails loudly in both places with the same words.
 */
export function validateFirebaseConfig(
  config: Partial<FirebaseWebConfig>,
  /** How to name a missing field: the server names its environment variables. */
  nameOf: (field: keyof FirebaseWebConfig) => string = (field) => field,
): FirebaseWebConfig {
  const missing = REQUIRED.filter((name) => !config[name]);
  if (missing.length > 0)
    throw new Error(`Missing Firebase configuration: ${missing.map(nameOf).join(', ')}`);
  if (!/^[A-Za-z0-9_-]+$/.test(config.apiKey ?? '')) throw new Error('Invalid Firebase API key format');
  if (!/^[a-z][a-z0-9-]*[a-z0-9]$/.test(config.projectId ?? '')) {
    throw new Error('Invalid Firebase project ID format');
  }
  if (!/^1:\d+:web:[a-f0-9]+$/.test(config.appId ?? '')) throw new Error('Invalid Firebase app ID format');
  return {
    apiKey: config.apiKey as string,
    projectId: config.projectId as string,
    messagingSenderId: config.messagingSenderId as string,
    appId: config.appId as string,
    authDomain: config.authDomain || `${config.projectId}.firebaseapp.com`,
  };
}

/** The project `npm start` and the tests use with the emulator: `demo-` ids never reach Google. */
export const DEMO_PROJECT_ID = 'demo-danglewatch';

export function demoFirebaseConfig(projectId = DEMO_PROJECT_ID): FirebaseWebConfig {
  return {
    apiKey: 'demo-api-key',
    authDomain: `${projectId}.firebaseapp.com`,
    projectId,
    messagingSenderId: '000000000000',
    appId: '1:000000000000:web:0000000000000000',
  };
}
