import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { DEMO_PROJECT_ID } from '../../src/model/firebase-config.ts';
import { startAuthEmulator } from '../../src/server/auth/emulator.ts';

/**
 * One Firebase Auth Emulator for the whole vitest run. Its port is picked free at random, with the
 * two above it, so concurrent runs in one working tree and a running `npm start` (9099) never
 * collide. Setup waits until it answers (about 5 s), before any test file starts: started beside
 * workers that each import the app, it took more than the tests' minute on a busy machine.
 */
export default async function setup(project: TestProject) {
  const port = await freePortTriple();
  const emulator = await startAuthEmulator({ port, projectId: DEMO_PROJECT_ID, readyTimeoutMs: 180_000 });
  project.provide('authEmulatorHost', `127.0.0.1:${port}`);
  return () => emulator.stop();
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
