import { fixtureURL } from '../../playwright.config.ts';

/**
 * After the browser tests: the run fails if the e2e server or its worker tried to reach beyond
 * loopback (tests/helpers/loopback-guard.ts refused it, and the control API kept where).
 */
export default async function teardown(): Promise<void> {
  let reached: string[];
  try {
    reached = (await (await fetch(`${fixtureURL}/reached-beyond`)).json()) as string[];
  } catch (error) {
    process.stderr.write(`e2e teardown: the e2e server could not be asked (${String(error)})\n`);
    return;
  }
  if (reached.length > 0)
    throw new Error(`the e2e server tried to reach beyond loopback: ${[...new Set(reached)].join(', ')}`);
}
