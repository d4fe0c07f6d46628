import { migrate } from './migrate.ts';
import { scan } from './scan.ts';
import { serve } from './serve.ts';

type Command = (args: string[]) => Promise<number>;

/** Each subcommand resolves to the process exit code. */
const commands: Record<string, { run: Command; summary: string }> = {
  serve: { run: serve, summary: 'run the API, the site and the worker (builds the site when it is stale)' },
  migrate: { run: migrate, summary: 'apply database migrations and exit' },
  scan: { run: scan, summary: 'scan a domain for dangling DNS records (--help for options)' },
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    const list = Object.entries(commands)
      .map(([n, c]) => `  ${n.padEnd(10)}${c.summary}`)
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
    return await command.run(args);
  } catch (error) {
    process.stderr.write(`danglewatch ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}
