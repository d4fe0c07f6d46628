/**
 * Product analytics without a third-party script. Events go to one pluggable sink: the default
 * dispatches a DOM event that anything on the page (a future first-party collector, a test) can
 * listen to, and does nothing outside a browser.
 */
type AnalyticsProps = Record<string, string | number | boolean | null | undefined>;

export interface AnalyticsEvent {
  event: string;
  props: AnalyticsProps;
  /** ISO 8601 time the event was recorded. */
  at: string;
}

type AnalyticsSink = (event: AnalyticsEvent) => void;

/** Name of the DOM event the default sink dispatches on `window`. */
export const ANALYTICS_DOM_EVENT = 'danglewatch:analytics';

export const domEventSink: AnalyticsSink = (event) => {
  if (typeof window === 'undefined' || typeof CustomEvent === 'undefined') return;
  window.dispatchEvent(new CustomEvent(ANALYTICS_DOM_EVENT, { detail: event }));
};

let sink: AnalyticsSink = domEventSink;

/** Replaces the sink; returns a function that restores the previous one. */
export function setAnalyticsSink(next: AnalyticsSink): () => void {
  const previous = sink;
  sink = next;
  return () => {
    sink = previous;
  };
}

/** Records an event. Analytics must never break the feature that reports to it, so sink errors are swallowed. */
export function track(event: string, props: AnalyticsProps = {}): void {
  try {
    sink({ event, props: { ...props }, at: new Date().toISOString() });
  } catch (error) {
    console.debug('analytics sink failed', error);
  }
}
