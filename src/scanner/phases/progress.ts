import type { ProgressEvent } from '../types.ts';

/**
 * A scan's progress: the caller's listener and the last event, which the heartbeat repeats. An
 * object with a method rather than a closure per scan: the resolve phase reports every name, and a
 * new closure is a new call target that makes V8 throw away the code it compiled for the scans
 * before (a long-running worker's second scan ran in slower code because of it).
 */
export class Progress {
  last: ProgressEvent = { phase: 'discover', done: 0, total: 1 };
  private readonly listener: ((event: ProgressEvent) => void) | undefined;

  constructor(listener: ((event: ProgressEvent) => void) | undefined) {
    this.listener = listener;
  }

  note(event: ProgressEvent) {
    this.last = event;
    this.listener?.(event);
  }
}
