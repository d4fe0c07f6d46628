import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForLock } from '../db/lock.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const stamp = join(root, 'dist', 'index.html');
/** Held while Astro writes dist/: a second build waits, then finds the site fresh. */
const buildLock = join(root, '.site-build.lock');
/** What the built site is made from: newer than the build means the build is stale. */
const inputs = ['src', 'public', 'astro.config.mjs', 'package-lock.json'];
const serverOnly = ['src/server', 'src/db', 'src/scanner', 'src/worker', 'src/cli'];

export function siteIsStale(): boolean {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return inputs.some((input) => newestMtime(join(root, input)) > built);
}

function newestMtime(path: string): number {
  if (!existsSync(path) || serverOnly.some((dir) => path === join(root, dir))) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function astroBuild(): void {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('The site build failed; see the output above.');
}

/** Builds the static site into dist/ (`danglewatch build`), one build at a time in this tree. */
export async function buildSite(): Promise<void> {
  const release = await waitForLock(buildLock);
  try {
    astroBuild();
  } finally {
    release();
  }
}

/**
 * Builds the site when it is missing or older than its sources, else reuses it. Processes started
 * together (two `serve` in one tree) wait for one build instead of writing dist/ at once.
 */
export async function ensureSiteBuilt(log: (line: string) => void): Promise<void> {
  if (!siteIsStale()) return;
  const release = await waitForLock(buildLock);
  try {
    if (!siteIsStale()) return;
    log('Building the site (it is missing or older than its sources)...');
    astroBuild();
  } finally {
    release();
  }
}
