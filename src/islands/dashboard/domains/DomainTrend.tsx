import { useEffect, useRef, useState } from 'react';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { TREND_DAYS } from '../../../model/constants.ts';
import type { TrendPoint } from '../../../model/contract.ts';
import { Spinner } from '../shared/Spinner.tsx';

/** Each status has its own line pattern as well as its colour, so the chart reads without colour. */
const SERIES = [
  { key: 'claimable', label: 'Claimable', stroke: '#b91c1c', dash: [] as number[] },
  { key: 'likely', label: 'Likely', stroke: '#b45309', dash: [8, 4] },
  { key: 'review', label: 'Review', stroke: '#475569', dash: [2, 3] },
] as const;

/**
 * Open findings by status over the last 90 days of scans, the latest point as they stand now (the
 * card's number), drawn with uPlot. The library loads only when a chart is opened, and a table of
 * the same figures is the text alternative.
 */
export function DomainTrend({ domainId, domainName }: { domainId: string; domainName: string }) {
  const [points, setPoints] = useState<TrendPoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const chart = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    dashboardApi()
      .domains.trend(domainId)
      .then(({ points }) => live && setPoints(points))
      .catch(
        (cause) => live && setError(cause instanceof Error ? cause.message : 'The trend could not be read.'),
      );
    return () => {
      live = false;
    };
  }, [domainId]);

  useEffect(() => {
    const target = chart.current;
    if (!target || !points || points.length < 2) return;
    let plot: { destroy(): void } | undefined;
    let live = true;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (!live) return;
      plot = new UPlot(
        {
          width: Math.max(280, target.clientWidth),
          height: 180,
          scales: { x: { time: true } },
          axes: [{}, { label: 'Open findings' }],
          series: [
            {},
            ...SERIES.map((s) => ({
              label: s.label,
              stroke: s.stroke,
              dash: [...s.dash],
              width: 2,
              points: { show: true },
            })),
          ],
        },
        [points.map((p) => Date.parse(p.at) / 1000), ...SERIES.map((s) => points.map((p) => p[s.key]))],
        target,
      );
    });
    return () => {
      live = false;
      plot?.destroy();
    };
  }, [points]);

  if (error) return <p className="mt-3 text-sm text-red-800">{error}</p>;
  if (!points) return <Spinner label="Loading the trend" />;
  const last = points.at(-1);
  return (
    <section
      className="mt-3 rounded-md border border-slate-200 p-3"
      aria-label={`Trend for ${domainName}`}
      data-testid="domain-trend"
    >
      <h4 className="text-sm font-semibold text-ink">Open findings, last {TREND_DAYS} days</h4>
      {points.length < 2 ? (
        <p className="mt-1 text-sm text-slate-700">
          {points.length === 0
            ? 'No completed scans yet.'
            : 'One completed scan so far: the trend starts with the next one.'}
        </p>
      ) : (
        <div ref={chart} className="mt-2 overflow-x-auto" aria-hidden="true" />
      )}
      {last && (
        <>
          <p className="mt-2 text-sm text-slate-700" data-testid="trend-latest">
            Latest scan ({formatDateTime(last.at)}): {last.claimable} claimable, {last.likely} likely,{' '}
            {last.review} to review.
          </p>
          <p className="text-xs text-slate-600">
            The latest point counts the findings as they stand now, as the card does: a fix or an accepted
            risk since that scan counts.
          </p>
        </>
      )}
      {points.length > 0 && (
        <details className="mt-2 text-xs">
          <summary className="cursor-pointer font-medium text-slate-800">The figures as a table</summary>
          <table className="mt-1 w-full text-left">
            <thead>
              <tr>
                <th scope="col">Scan finished</th>
                {SERIES.map((s) => (
                  <th key={s.key} scope="col">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.scanId}>
                  <td>{formatDateTime(p.at)}</td>
                  {SERIES.map((s) => (
                    <td key={s.key}>{p[s.key]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}
