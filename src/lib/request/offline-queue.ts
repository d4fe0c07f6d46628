/**
 * Requests that failed with a retryable error while the browser was offline wait here and run
 * again when the connection returns.
 */
export interface Connectivity {
  isOnline(): boolean;
  /** Calls back each time the browser comes online; returns an unsubscribe function. */
  onOnline(callback: () => void): () => void;
}

const browserConnectivity: Connectivity = {
  isOnline: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  onOnline: (callback) => {
    if (typeof window === 'undefined') return () => {};
    window.addEventListener('online', callback);
    return () => window.removeEventListener('online', callback);
  },
};

export class OfflineQueue {
  private readonly pending: Array<() => void> = [];
  private readonly connectivity: Connectivity;
  private unsubscribe: (() => void) | undefined;

  constructor(connectivity: Connectivity = browserConnectivity) {
    this.connectivity = connectivity;
  }

  get size(): number {
    return this.pending.length;
  }

  isOnline(): boolean {
    return this.connectivity.isOnline();
  }

  /** Runs `task` once the browser is online again; settles with its outcome. */
  enqueue<T>(task: () => Promise<T>): Promise<T> {
    this.unsubscribe ??= this.connectivity.onOnline(() => this.flush());
    return new Promise<T>((resolve, reject) => {
      this.pending.push(() => {
        task().then(resolve, reject);
      });
    });
  }

  flush(): void {
    const tasks = this.pending.splice(0);
    for (const task of tasks) task();
  }
}
