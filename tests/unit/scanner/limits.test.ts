import { describe, expect, it } from 'vitest';
import { progressBar } from '../../../src/cli/scan-progress.ts';
import { parseDomain } from '../../../src/scanner/scan.ts';
import { Limiter, mapLimit, RateLimiter } from '../../../src/scanner/util/limit.ts';

describe('limits', () => {
  it('a limiter never runs more than its width at once', async () => {
    const limiter = new Limiter(3);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        limiter.run(async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it('a cancelled limiter rejects waiting tasks and refuses new ones', async () => {
    const controller = new AbortController();
    const limiter = new Limiter(1, controller.signal);
    const first = limiter.run(() => new Promise((resolve) => setTimeout(resolve, 50)));
    const waiting = limiter.run(async () => 'ran');
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await expect(limiter.run(async () => 'ran')).rejects.toThrow('stop');
    await first;
  });

  it('a rate limiter starts its first tasks at once and no more than its rate in any second', async () => {
    const rate = new RateLimiter(5);
    const starts: number[] = [];
    const first = Promise.all(
      Array.from({ length: 5 }, () => rate.take().then(() => starts.push(performance.now()))),
    );
    // The first five need no timer: they have all started before the next turn of the event loop.
    const beforeTimers = await Promise.race([
      first.then(() => 'started'),
      new Promise((resolve) => setImmediate(() => resolve('waited'))),
    ]);
    expect(beforeTimers).toBe('started');
    for (let i = 0; i < 3; i++) {
      await rate.take();
      starts.push(performance.now());
    }
    for (let i = 5; i < starts.length; i++) {
      // The first five are recorded a moment after the limiter's own clock read (their `then`).
      expect((starts[i] as number) - (starts[i - 5] as number)).toBeGreaterThanOrEqual(999);
    }
  });

  it('mapLimit keeps the input order', async () => {
    const out = await mapLimit([30, 10, 20], 2, async (ms) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return ms;
    });
    expect(out).toEqual([30, 10, 20]);
  });
});

describe('the progress bar', () => {
  it('redraws one line at a bounded rate and erases itself when done', () => {
    const out: string[] = [];
    let clock = 1000;
    const bar = progressBar({ write: (text: string) => out.push(text) }, () => clock);
    bar({ phase: 'resolve', done: 5, total: 10 });
    bar({ phase: 'resolve', done: 6, total: 10 });
    clock += 100;
    bar({ phase: 'validate', done: 1, total: 2 });
    bar({ phase: 'done', done: 1, total: 1 });
    expect(out).toHaveLength(3);
    expect(out[0]).toContain(`[${'#'.repeat(15)}${'.'.repeat(15)}] 5/10`);
    expect(out[1]?.startsWith('\r\x1b[2Kvalidate')).toBe(true);
    expect(out[2]).toBe('\r\x1b[2K');
  });
});

describe('domains', () => {
  it('accepts host names under a public suffix, in ASCII form, and refuses the rest', () => {
    expect(parseDomain('Example.COM.')).toBe('example.com');
    expect(parseDomain('bücher.de')).toBe('xn--bcher-kva.de');
    for (const bad of ['com', '127.0.0.1', 'not a domain', 'exa_mple.com', '']) {
      expect(() => parseDomain(bad)).toThrow(/invalid domain/);
    }
  });
});
