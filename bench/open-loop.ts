// An open-loop load, as independent users make it: requests arrive at `rate` per second on average,
// at random moments (a Poisson process: exponential gaps, from a fixed seed so that runs compare),
// each sent at its moment whether or not earlier ones have been answered, over keep-alive
// connections. A latency counts from the moment its request was due, so a stalled server, or a
// late client, shows in the figures instead of hiding in requests never sent (coordinated omission).
//
// autocannon's overallRate is not this: each of its connections sends its share of the second back
// to back and then waits for the next second, so 200/s over 10 connections is bursts of 10
// concurrent requests. api-load.ts reports both.
import http from 'node:http';

export interface OpenLoopResult {
  requests: number;
  errors: number;
  /** Milliseconds, sorted ascending. */
  latencies: number[];
}

const TIMEOUT_MS = 10_000;

/** mulberry32: a small seeded generator of uniform numbers in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function openLoop(options: {
  url: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
}): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const random = seededRandom(20261122);
  const total = Math.round(options.rate * options.seconds);
  const meanGap = 1000 / options.rate;
  const due: number[] = [];
  for (let at = 0; due.length < total; at += -Math.log(1 - random()) * meanGap) due.push(at);
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
    while (sent < total && start + (due[sent] ?? 0) <= now) {
      inFlight.push(send(start + (due[sent] ?? 0)));
      sent += 1;
    }
    const next = start + (due[sent] ?? 0);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { requests: total, errors, latencies: latencies.sort((a, b) => a - b) };
}
