import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/helpers/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 4398);
export const baseURL = `http://127.0.0.1:${port}`;
/** The control API of the scan fixtures (tests/helpers/e2e-server.ts): specs publish DNS records there. */
export const fixtureURL = `http://127.0.0.1:${23000 + (port % 1000)}`;

/**
 * The e2e suite drives Debian's Chromium (never a downloaded browser) against the built site served
 * by our own server on a fresh embedded database, its scans pointed at loopback DNS and CT fixtures.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  globalTeardown: './tests/helpers/e2e-teardown.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  // A passing expectation returns as soon as it holds; the bound only decides how long a failing one
  // waits. 7 s was crossed on a loaded 2-core machine by pages that were merely slow (a redirect
  // after Firebase's first auth read, a health banner after its poll).
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
  webServer: {
    command: 'node tests/helpers/e2e-server.ts',
    url: `${baseURL}/ready`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(mkdtempSync(join(tmpdir(), 'dw-e2e-')), 'data'),
      LOG_LEVEL: 'warn',
      // serve starts its own Auth Emulator; each E2E_PORT gets its own ports (auth, hub, logging).
      AUTH_EMULATOR_PORT: String(20000 + (port % 1000) * 3),
      E2E_FIXTURE_PORT: new URL(fixtureURL).port,
    },
  },
});
