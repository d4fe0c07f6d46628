// The settings every danglewatch process runs with. V8 sizes its heap and glibc sets up its
// allocator as the process starts, so a setting made later comes too late: the process starts
// itself again with them, keeping its PID, its arguments and its environment. bench/scan.ts runs
// the engine the same way and prints the memory figures these settings were chosen on.

/**
 * --max-semi-space-size=8: while objects keep surviving collections, V8 doubles its young
 * generation up to a maximum it takes from the machine's memory. Scanning back to back on a 24 GB
 * machine, the engine grew from 140 MB to 175-195 MB in eight scans that way; bounded at 8 MB it
 * stays near 140 MB, as fast.
 */
export const RUNTIME_FLAGS = ['--max-semi-space-size=8'];

/**
 * MALLOC_TRIM_THRESHOLD_: once a large block is freed, glibc raises its trim threshold as far as
 * 64 MB and keeps what the JIT compiler and the sockets freed. A fixed 128 KB hands it back:
 * 129-136 MB instead of 142-154 MB over six scans, at the same speed. Other C libraries ignore it.
 */
export const RUNTIME_ENV = { MALLOC_TRIM_THRESHOLD_: '131072' };

const YOUNG_GENERATION_SIZE = /^--max[-_]semi[-_]space[-_]size\b/;

/**
 * Starts this process again with RUNTIME_FLAGS before its own Node options and RUNTIME_ENV in its
 * environment, leaving alone what the operator chose (a young generation size in NODE_OPTIONS or
 * on the command line, any of the variables). Returns only in the process that goes on: one that
 * has them all, or where `process.execve` is missing (before Node 22.15, and on Windows), which
 * then runs with V8's and the C library's defaults.
 * @param {string} script the file the process runs, as `import.meta.filename` gives it
 */
export function restartWithRuntimeSettings(script) {
  const options = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const sized = options.some((option) => YOUNG_GENERATION_SIZE.test(option));
  const missing = Object.entries(RUNTIME_ENV).filter(([name]) => process.env[name] === undefined);
  if ((sized && missing.length === 0) || typeof process.execve !== 'function') return;
  process.execve(
    process.execPath,
    [
      process.execPath,
      ...(sized ? [] : RUNTIME_FLAGS),
      ...process.execArgv,
      script,
      ...process.argv.slice(2),
    ],
    { ...process.env, ...Object.fromEntries(missing) },
  );
}
