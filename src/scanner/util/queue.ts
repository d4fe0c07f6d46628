/**
 * Work that arrives while it runs: `width` workers take items in order. `push` asks its caller to
 * wait while the backlog is past `highWater`, so a stream (a zone of 100,000 records) is read only
 * as fast as it is worked through; `add` never waits, for items the workers themselves find. The
 * first failure (a cancelled scan) fails `idle()`.
 */
export class WorkQueue<T> {
  private readonly backlog: T[] = [];
  private head = 0;
  private running = 0;
  private failure: { error: unknown } | undefined;
  private idleWaiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private roomWaiters: Array<() => void> = [];

  private readonly width: number;
  private readonly highWater: number;
  /**
   * An object whose method does the work, not a callback: a scan's own closure would be a new call
   * target in every scan, and V8 dropped the compiled queue at each one.
   */
  private readonly worker: { work(item: T): Promise<void> };

  constructor(width: number, highWater: number, worker: { work(item: T): Promise<void> }) {
    this.width = width;
    this.highWater = highWater;
    this.worker = worker;
  }

  get pending() {
    return this.backlog.length - this.head;
  }

  add(item: T) {
    if (this.failure) return;
    this.backlog.push(item);
    this.pump();
  }

  /**
   * Adds an item; while the backlog is past `highWater`, also a promise of room for the next one.
   * Nothing to wait for mostly: a stream of 100,000 records is not an async call per record.
   */
  push(item: T): Promise<void> | undefined {
    this.throwIfFailed();
    this.add(item);
    return this.pending > this.highWater ? this.room() : undefined;
  }

  private async room() {
    while (this.pending > this.highWater && !this.failure) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    this.throwIfFailed();
  }

  private throwIfFailed() {
    if (this.failure) throw this.failure.error;
  }

  /** Resolves once nothing waits and nothing runs; rejects with the first failure. */
  idle(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.pending === 0 && this.running === 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.idleWaiters.push({ resolve, reject }));
  }

  private take(): T | undefined {
    if (this.head >= this.backlog.length) return undefined;
    const item = this.backlog[this.head] as T;
    this.head++;
    // Drop the consumed front now and then, so a long run does not keep every item it saw.
    if (this.head > 1024 && this.head * 2 > this.backlog.length) {
      this.backlog.splice(0, this.head);
      this.head = 0;
    }
    return item;
  }

  private pump() {
    while (this.running < this.width && !this.failure) {
      const item = this.take();
      if (item === undefined) break;
      this.running++;
      this.worker.work(item).then(this.finished, this.failed);
    }
    this.settle();
  }

  /** Made once, not a pair per item: they are much of what an item in the works holds. */
  private readonly finished = () => {
    this.running--;
    this.wake();
    this.pump();
    this.settle();
  };

  private readonly failed = (error: unknown) => {
    this.running--;
    this.failure ??= { error };
    this.wake();
    this.settle();
  };

  private wake() {
    if (this.pending > this.highWater && !this.failure) return;
    for (const resolve of this.roomWaiters.splice(0)) resolve();
  }

  private settle() {
    if (this.failure) {
      for (const waiter of this.idleWaiters.splice(0)) waiter.reject(this.failure.error);
    } else if (this.pending === 0 && this.running === 0) {
      for (const waiter of this.idleWaiters.splice(0)) waiter.resolve();
    }
  }
}
