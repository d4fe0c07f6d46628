import { createServer } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { setupAuth } from '../../../src/start/auth.ts';
import { loadConfig } from '../../../src/start/config.ts';

const logger = pino({ level: 'silent' });
const savedHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;

afterEach(() => {
  if (savedHost === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  else process.env.FIREBASE_AUTH_EMULATOR_HOST = savedHost;
});

describe('setupAuth chooses the sign-in backend', () => {
  it('a real project: its web configuration, its auth domain in the CSP, no emulator', async () => {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const auth = await setupAuth(
      loadConfig({
        PUBLIC_FIREBASE_API_KEY: 'AIzaSyExample_key-1',
        PUBLIC_FIREBASE_PROJECT_ID: 'acme-prod',
        PUBLIC_FIREBASE_MESSAGING_SENDER_ID: '1234',
        PUBLIC_FIREBASE_APP_ID: '1:1234:web:abcdef',
      }),
      logger,
    );
    try {
      expect(auth.deps.publicConfig).toEqual({
        firebase: {
          apiKey: 'AIzaSyExample_key-1',
          projectId: 'acme-prod',
          messagingSenderId: '1234',
          appId: '1:1234:web:abcdef',
          authDomain: 'acme-prod.firebaseapp.com',
        },
      });
      expect(auth.csp).toEqual({ authDomain: 'acme-prod.firebaseapp.com', authEmulatorOrigin: undefined });
      expect(process.env.FIREBASE_AUTH_EMULATOR_HOST).toBeUndefined();
    } finally {
      await auth.stop();
    }
  });

  it('FIREBASE_AUTH_EMULATOR_HOST: uses that emulator with the demo project, starts none', async () => {
    const auth = await setupAuth(loadConfig({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9555' }), logger);
    try {
      expect(auth.deps.publicConfig).toMatchObject({
        firebase: { projectId: 'demo-danglewatch' },
        emulatorUrl: 'http://127.0.0.1:9555',
      });
      expect(auth.csp.authEmulatorOrigin).toBe('http://127.0.0.1:9555');
    } finally {
      await auth.stop();
    }
  });
});

async function freePort(): Promise<number> {
  for (;;) {
    const port = 41000 + Math.floor(Math.random() * 9000);
    const free = await Promise.all(
      [port, port + 1, port + 2].map(
        (p) =>
          new Promise<boolean>((resolve) => {
            const server = createServer();
            server.once('error', () => resolve(false));
            server.listen(p, '127.0.0.1', () => server.close(() => resolve(true)));
          }),
      ),
    );
    if (free.every(Boolean)) return port;
  }
}

describe('setupAuth with nothing configured (npm start on a fresh machine)', () => {
  it('starts the Auth Emulator, points firebase-admin at it, and stops it', async () => {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const port = await freePort();
    const auth = await setupAuth(loadConfig({ AUTH_EMULATOR_PORT: String(port) }), logger);
    const origin = `http://127.0.0.1:${port}`;
    try {
      expect(auth.deps.publicConfig.emulatorUrl).toBe(origin);
      expect(process.env.FIREBASE_AUTH_EMULATOR_HOST).toBe(`127.0.0.1:${port}`);
      expect((await fetch(`${origin}/`)).ok).toBe(true);
    } finally {
      await auth.stop();
    }
    await expect(fetch(`${origin}/`)).rejects.toThrow();
  }, 60_000);
});
