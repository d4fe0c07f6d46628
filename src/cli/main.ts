import { ConnectorError } from '../connectors/http/error.ts';
import type { EngineSettings } from './scan.ts';

type Command = (args: string[], engine: EngineSettings) => Promise<number>;

/**
 * Each subcommand resolves to the process exit code. They load on demand: `scan` must not pay for
 * the server, the database and the queue that `serve` pulls in.
 */
const commands: Record<string, { run: Command; summary: string }> = {
  serve: {
    run: async (args) => (await import('./serve.ts')).serve(args),
    summary: 'run the API, the site and the worker (builds the site when it is stale); --no-worker: API only',
  },
  worker: {
    run: async (args) => (await import('./worker.ts')).worker(args),
    summary: 'run the job workers only, on PostgreSQL (DATABASE_URL), next to `serve --no-worker`',
  },
  build: {
    run: async (args) => (await import('./build.ts')).build(args),
    summary: 'build the static site into dist/ (once, for every API process or a CDN)',
  },
  migrate: {
    run: async () => (await import('./migrate.ts')).migrate(),
    summary: 'apply database migrations and exit',
  },
  users: {
    run: async (args) => (await import('./users.ts')).usersCommand(args),
    summary: 'list accounts, or grant a plan without billing (set-plan <email> <plan>)',
  },
  ranges: {
    run: async (args) => (await import('./ranges.ts')).rangesCommand(args),
    summary:
      "show the clouds' address ranges, or update one cloud's from its published list (update <file|url>)",
  },
  fingerprints: {
    run: async (args) => (await import('./fingerprints.ts')).fingerprintsCommand(args),
    summary:
      'show the takeover fingerprints in use with their sources and dates, or update them from an upstream copy (update <path|url>)',
  },
  scan: {
    run: async (args, engine) => (await import('./scan.ts')).scan(args, engine),
    summary: 'scan a domain for dangling DNS records (--help for options)',
  },
};

/** `engine`: settings of the scan engine that no flag offers, for tests that run the command in process. */
export async function main(argv: string[], engine: EngineSettings = {}): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    const list = Object.entries(commands)
      .map(([n, c]) => `  ${n.padEnd(14)}${c.summary}`)
      .join('\n');
    const out = `Usage: danglewatch <command> [options]\n\nCommands:\n${list}\n`;
    if (name && name !== '--help' && name !== '-h') {
      process.stderr.write(`danglewatch: unknown command '${name}'\n${out}`);
      return 2;
    }
    process.stdout.write(out);
    return 0;
  }
  try {
    return await command.run(args, engine);
  } catch (error) {
    // An outside call's failure says the provider's own words after the sentence.
    const words =
      error instanceof ConnectorError ? error.full : error instanceof Error ? error.message : String(error);
    process.stderr.write(`danglewatch ${name}: ${words}\n`);
    return 2;
  }
}
