import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const firebaseCli = fileURLToPath(
  new URL('../../../node_modules/firebase-tools/lib/bin/firebase.js', import.meta.url),
);

interface AuthEmulator {
  /** host:port, the form FIREBASE_AUTH_EMULATOR_HOST takes. */
  host: string;
  origin: string;
  projectId: string;
  stop(): Promise<void>;
}

interface AuthEmulatorOptions {
  port: number;
  projectId: string;
  /** Lines of the emulator's output, for the caller's log. */
  onOutput?: (line: string) => void;
  readyTimeoutMs?: number;
}

/**
 * Starts the Firebase Auth Emulator (firebase-tools, `--only auth`) and resolves once it answers.
 * Its hub and logging ports sit right above the auth port, so two emulators on different auth ports
 * (npm start, the unit tests, the e2e run) never fight over the defaults 4400/4500. It runs in a
 * temporary directory with its own firebase.json, which keeps its debug log out of the project.
 */
export async function startAuthEmulator(options: AuthEmulatorOptions): Promise<AuthEmulator> {
  const { port, projectId } = options;
  // A readiness probe cannot tell our emulator from another one already on the port.
  for (const taken of [port, port + 1, port + 2]) {
    if (!(await portIsFree(taken))) {
      throw new Error(
        `Port ${taken} is in use, so the Firebase Auth Emulator (ports ${port}-${port + 2}) cannot start. ` +
          'Set AUTH_EMULATOR_PORT to another port, or FIREBASE_AUTH_EMULATOR_HOST to use a running emulator.',
      );
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'dw-auth-emulator-'));
  writeFileSync(
    join(dir, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: port + 1 },
        logging: { host: '127.0.0.1', port: port + 2 },
        // The UI would be downloaded at start-up, which fails offline and stops the emulator.
        ui: { enabled: false },
      },
    }),
  );
  const child = spawn(
    process.execPath,
    [firebaseCli, 'emulators:start', '--only', 'auth', '--project', projectId],
    {
      cwd: dir,
      env: { ...process.env, CI: 'true', NO_UPDATE_NOTIFIER: '1', FIREBASE_AUTH_EMULATOR_HOST: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      output.push(line);
      if (output.length > 50) output.shift();
      options.onOutput?.(line);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  // Never outlive the process that started it, even when start-up fails after this point.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.off('exit', killOnExit);
      resolve(code);
    }),
  );
  const origin = `http://127.0.0.1:${port}`;
  const stop = () => stopChild(child, exited).finally(() => rmSync(dir, { recursive: true, force: true }));

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  let early: number | null | undefined;
  void exited.then((code) => {
    early = code;
  });
  while (Date.now() < deadline) {
    if (early !== undefined) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`The Firebase Auth Emulator exited (code ${early}):\n${output.join('\n')}`);
    }
    if (await answers(origin)) return { host: `127.0.0.1:${port}`, origin, projectId, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`The Firebase Auth Emulator did not start on port ${port}:\n${output.join('\n')}`);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function answers(origin: string): Promise<boolean> {
  try {
    const res = await fetch(`${origin}/`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  // SIGINT is the emulator's clean shutdown; SIGKILL if it hangs.
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
