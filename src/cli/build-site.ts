import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const stamp = join(root, 'dist', 'index.html');
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

/** Builds the static site with Astro when it is missing or older than its sources. */
export function ensureSiteBuilt(log: (line: string) => void): void {
  if (!siteIsStale()) return;
  log('Building the site (it is missing or older than its sources)...');
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('The site build failed; see the output above.');
}
