import { progressPercent, progressText } from '../../../lib/dashboard/format.ts';
import type { ScanProgress } from '../../../model/contract.ts';

/** A running scan's live progress: the stage and names checked of the total, with a bar. */
export function ScanProgressBar({ progress }: { progress: ScanProgress | null }) {
  const percent = progressPercent(progress);
  const text = progressText(progress);
  return (
    <div className="mt-2" data-testid="scan-progress">
      <p className="text-sm text-blue-900">{text}</p>
      <div
        role="progressbar"
        aria-label="Scan progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={text}
        className="mt-1 h-2 w-full overflow-hidden rounded-full bg-blue-100"
      >
        <div
          className={`h-full bg-blue-600 transition-[width] ${percent === null ? 'w-1/3 animate-pulse' : ''}`}
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
