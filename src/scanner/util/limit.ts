/** Bounds how many tasks run at once; waiting tasks are rejected when the scan is cancelled. */
export class Limiter {
  readonly max: number;
  private active = 0;
  private readonly waiting: Array<{ start: () => void; fail: (error: unknown) => void }> = [];
  private readonly signal: AbortSignal | undefined;

  constructor(max: number, signal?: AbortSignal) {
    this.max = Math.max(1, max);
    this.signal = signal;
    signal?.addEventListener(
      'abort',
      () => {
        for (const waiter of this.waiting.splice(0)) waiter.fail(signal.reason);
      },
      { once: true },
    );
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.signal?.aborted) return Promise.reject(this.signal.reason);
    // A finishing task hands its slot straight to the next waiter, so a newcomer arriving before
    // the waiter wakes up cannot take the same slot too.
    if (this.active < this.max) {
      this.active++;
      return this.inSlot(task);
    }
    return new Promise<void>((start, fail) => this.waiting.push({ start, fail })).then(() =>
      this.inSlot(task),
    );
  }

  /**
   * Runs a task in the slot it holds and hands the slot on when the task ends, either way. Not an
   * async function: every DNS question of a scan passes here, and a suspended async frame is what
   * a question waiting for its reply would hold on to.
   */
  private inSlot<T>(task: () => Promise<T>): Promise<T> {
    let running: Promise<T>;
    try {
      running = task();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.then(this.passOn, this.failOn);
  }

  /** Made once per limiter: `finally` would make two functions per task. */
  private readonly passOn = <T>(value: T) => {
    this.handOn();
    return value;
  };

  private readonly failOn = (error: unknown) => {
    this.handOn();
    throw error;
  };

  private handOn() {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.active--;
  }
}

/** Runs `work` over `items` with at most `width` in flight, keeping the input order in the result. */
export async function mapLimit<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>) {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

export function sleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * At most `perSecond` starts in any one second: a polite rate towards one service. A window, not
 * an even spacing: the first probes of a service start at once (a scan asks most services only a
 * few times), and only a service asked more often is slowed to its rate.
 */
export class RateLimiter {
  /** Start times of the last `perSecond` tasks, oldest first (a ring). */
  private readonly starts: number[] = [];
  private oldest = 0;
  private readonly size: number;
  private readonly signal: AbortSignal | undefined;

  constructor(perSecond: number, signal?: AbortSignal) {
    this.size = Math.max(1, Math.floor(perSecond));
    this.signal = signal;
  }

  async take() {
    const now = performance.now();
    if (this.starts.length < this.size) {
      this.starts.push(now);
      return;
    }
    // This start takes the slot of the one `size` starts back, a second after it at the earliest;
    // the slot is claimed now, so callers arriving while this one waits queue behind it.
    const at = Math.max(now, (this.starts[this.oldest] as number) + 1000);
    this.starts[this.oldest] = at;
    this.oldest = (this.oldest + 1) % this.size;
    // Timers count whole milliseconds of the event loop's clock and can fire a little before the
    // time asked by performance.now(): the wait ends by that clock, so no second holds one start too many.
    for (let left = at - now; left > 0; left = at - performance.now()) await sleep(left, this.signal);
  }
}
