import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { DEMO_PROJECT_ID } from '../../src/model/firebase-config.ts';
import { startAuthEmulator } from '../../src/server/auth/emulator.ts';

/**
 * One Firebase Auth Emulator for the whole vitest run. Its port is picked free at random, with the
 * two above it, so concurrent runs in one working tree and a running `npm start` (9099) never
 * collide. Setup does not wait for it (about 5 s): tests that need it call waitForAuthEmulator().
 */
export default async function setup(project: TestProject) {
  const port = await freePortTriple();
  const starting = startAuthEmulator({ port, projectId: DEMO_PROJECT_ID });
  // Reported by the tests that wait for it; here it must not become an unhandled rejection.
  starting.catch(() => {});
  project.provide('authEmulatorHost', `127.0.0.1:${port}`);
  return async () => {
    const emulator = await starting.catch(() => undefined);
    await emulator?.stop();
  };
}

async function freePortTriple(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 30000 + Math.floor(Math.random() * 10000);
    const free = await Promise.all([base, base + 1, base + 2].map(isFree));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free port for the auth emulator');
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}
