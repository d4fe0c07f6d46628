import type { ProgressEvent } from '../scanner/types.ts';

/**
 * A one-line progress bar for a terminal, redrawn in place at most every 80 ms and erased when the
 * scan is done, so the report that follows starts on a clean line.
 */
export function progressBar(stream: { write(text: string): unknown }, now = () => Date.now()) {
  let last = 0;
  return (event: ProgressEvent) => {
    const time = now();
    if (event.phase !== 'done' && time - last < 80) return;
    last = time;
    if (event.phase === 'done') {
      stream.write('\r\x1b[2K');
      return;
    }
    const width = 30;
    const ratio = event.total > 0 ? Math.min(1, event.done / event.total) : 0;
    const filled = Math.round(ratio * width);
    stream.write(
      `\r\x1b[2K${event.phase.padEnd(9)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${event.done}/${event.total}`,
    );
  };
}
