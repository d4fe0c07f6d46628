// Reads the output of `npm test` and prints one closing line over both test runners:
// "N passed, N failed, N skipped". Vitest reports "Tests  1 failed | 51 passed | 2 skipped (54)";
// Playwright reports "  3 passed (6.9s)", "  1 failed", "  2 skipped" on lines of their own.
import { readFileSync } from 'node:fs';

const log = readFileSync(process.argv[2], 'utf8');
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const line of log.split('\n')) {
  const vitest = line.match(/^\s*Tests\s+(.*)\(\d+\)\s*$/);
  const parts = vitest
    ? vitest[1].split('|')
    : /^\s+\d+ (passed|failed|skipped)( \(|$)/.test(line)
      ? [line]
      : [];
  for (const part of parts) {
    const m = part.trim().match(/^(\d+) (passed|failed|skipped)/);
    if (m) totals[m[2]] += Number(m[1]);
  }
}
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
