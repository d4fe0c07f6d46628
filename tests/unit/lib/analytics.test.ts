import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ANALYTICS_DOM_EVENT,
  type AnalyticsEvent,
  domEventSink,
  setAnalyticsSink,
  track,
} from '../../../src/lib/analytics.ts';

describe('track', () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
    vi.unstubAllGlobals();
  });

  it('sends the event name, a copy of its properties and the time to the plugged-in sink', () => {
    const events: AnalyticsEvent[] = [];
    restore = setAnalyticsSink((e) => events.push(e));
    const props = { source: 'home' };
    track('email_signup_success', props);
    props.source = 'changed';
    expect(events).toHaveLength(1);
    expect(events[0]?.event).toBe('email_signup_success');
    expect(events[0]?.props).toEqual({ source: 'home' });
    expect(Number.isNaN(Date.parse(events[0]?.at ?? ''))).toBe(false);
  });

  it('defaults the properties to an empty object', () => {
    const events: AnalyticsEvent[] = [];
    restore = setAnalyticsSink((e) => events.push(e));
    track('page_view');
    expect(events[0]?.props).toEqual({});
  });

  it('restores the previous sink', () => {
    const first: string[] = [];
    const second: string[] = [];
    const restoreFirst = setAnalyticsSink((e) => first.push(e.event));
    const restoreSecond = setAnalyticsSink((e) => second.push(e.event));
    track('a');
    restoreSecond();
    track('b');
    restoreFirst();
    expect(second).toEqual(['a']);
    expect(first).toEqual(['b']);
  });

  it('never throws when the sink fails', () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    restore = setAnalyticsSink(() => {
      throw new Error('sink down');
    });
    expect(() => track('x')).not.toThrow();
    expect(debug).toHaveBeenCalled();
    debug.mockRestore();
  });

  it('has a default sink that dispatches a DOM event in a browser and is a no-op elsewhere', () => {
    expect(() => domEventSink({ event: 'x', props: {}, at: new Date().toISOString() })).not.toThrow();
    const target = new EventTarget();
    vi.stubGlobal('window', target);
    const received: unknown[] = [];
    target.addEventListener(ANALYTICS_DOM_EVENT, (e) => received.push((e as CustomEvent).detail));
    track('email_signup_error', { source: 'home', error: 'Failed to subscribe: 500' });
    expect(received).toEqual([
      expect.objectContaining({
        event: 'email_signup_error',
        props: { source: 'home', error: 'Failed to subscribe: 500' },
      }),
    ]);
  });
});
