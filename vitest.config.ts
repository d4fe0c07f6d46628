import { globSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const include = ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'];

/**
 * Files that mock modules, stub globals or set process.env for what they test: each needs a module
 * graph of its own.
 */
const ownModules = [
  'tests/unit/server/auth-setup.test.ts',
  'tests/unit/server/verifier.test.ts',
  'tests/unit/core/webhooks/chat-messages.test.ts',
];

/**
 * The service lane: the files that load the app, the services and the worker's jobs. A worker
 * imports those once and runs one such file after another on them, instead of importing them
 * again for each file, and each file gets the worker's databases emptied instead of new ones
 * (tests/helpers/databases.ts). Every other file is the unit lane: engine, CLI, model, browser
 * code, migrations and processes, each file in a module graph of its own.
 */
const sharedModules = globSync('tests/unit/{server,worker,core}/**/*.test.ts').filter(
  (file) => !ownModules.includes(file),
);

export default defineConfig({
  test: {
    globalSetup: ['tests/helpers/global-setup.ts', 'tests/helpers/emulator-setup.ts'],
    setupFiles: ['tests/helpers/loopback-only.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default on 2 cores is one file at a time, though most files wait on sockets, child
    // processes and timers. Three at once was faster still, but on a busy machine the 100,000-record
    // cap tests and the scale test then ran past their timeouts.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'services', include: sharedModules, isolate: false, provide: { reuseDatabases: true } },
      },
      { extends: true, test: { name: 'unit', include, exclude: sharedModules } },
    ],
  },
});
