// An open-loop load: one request every 1000 / rate ms for the whole run, each sent at its moment
// whether or not earlier ones have been answered (as users arrive), over keep-alive connections.
// A latency counts from the moment its request was due, so a stalled server, or a late client,
// shows in the figures instead of hiding in requests never sent (coordinated omission).
//
// autocannon's overallRate is not this: each of its connections sends its share of the second back
// to back and then waits for the next second, so 200/s over 10 connections is bursts of 10
// concurrent requests. api-load.ts reports both.
import http from 'node:http';

export interface SteadyLoadResult {
  requests: number;
  errors: number;
  /** Milliseconds, sorted ascending. */
  latencies: number[];
}

const TIMEOUT_MS = 10_000;

export async function steadyLoad(options: {
  url: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
}): Promise<SteadyLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const request = http.get(
        options.url,
        { agent, headers: options.headers, timeout: TIMEOUT_MS },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - due);
            else errors += 1;
            resolve();
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => {
        errors += 1;
        resolve();
      });
    });
  const start = performance.now();
  for (let sent = 0; sent < total; ) {
    const now = performance.now();
    while (sent < total && start + sent * interval <= now) {
      inFlight.push(send(start + sent * interval));
      sent += 1;
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, start + sent * interval - performance.now())),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { requests: total, errors, latencies: latencies.sort((a, b) => a - b) };
}
