/** Samples kept per metric name (spec 1 §9). */
export const METRIC_SAMPLES = 100;

const samples = new Map<string, number[]>();

/** Records one sample (e.g. a request's duration in ms), keeping the last 100 per name. */
export function recordMetric(name: string, value: number): void {
  const list = samples.get(name) ?? [];
  list.push(value);
  if (list.length > METRIC_SAMPLES) list.splice(0, list.length - METRIC_SAMPLES);
  samples.set(name, list);
}

export function metricSummary(name: string): { count: number; mean: number; p95: number } | undefined {
  const list = samples.get(name);
  if (!list?.length) return undefined;
  const sorted = [...list].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
  return { count: list.length, mean: list.reduce((a, b) => a + b, 0) / list.length, p95 };
}

export function clearMetrics(): void {
  samples.clear();
}
