import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/danglewatch.js', import.meta.url));

export interface DanglewatchProcess {
  child: ChildProcess;
  /** The log line (pino JSON) that said the process was up. */
  ready: Record<string, unknown>;
  /** SIGTERM, as an orchestrator stops it; resolves once it exited. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs, as when a machine dies. */
  kill(): Promise<void>;
}

/**
 * Runs `danglewatch <args>` as a real child process with the given environment (on top of this
 * one's) and resolves once it logs `readyMessage`. Its log is read to the end, so it never blocks;
 * `onLog` sees every line.
 */
export async function startDanglewatch(
  args: string[],
  env: Record<string, string>,
  readyMessage: string,
  options: { timeoutMs?: number; onLog?: (entry: Record<string, unknown>) => void } = {},
): Promise<DanglewatchProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`danglewatch ${args.join(' ')} was not ready in ${timeoutMs} ms:\n${stderr.join('')}`),
      );
    }, timeoutMs);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`danglewatch ${args.join(' ')} exited before it was ready:\n${stderr.join('')}`));
    });
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      options.onLog?.(entry);
      if (entry.msg === readyMessage) {
        clearTimeout(timer);
        resolve(entry);
      }
    });
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { child, ready, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}
