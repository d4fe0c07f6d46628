import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $toasts,
  dismissToast,
  removeToast,
  TOAST_DEFAULT_DURATION,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  toast,
} from '../../../src/lib/toast.ts';

describe('toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    removeToast();
  });
  afterEach(() => {
    removeToast();
    vi.useRealTimers();
  });

  it('uses the limits of the spec', () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
  });

  it('shows a toast with its title, description and the default variant', () => {
    toast({ title: 'Thanks for joining!', description: "We'll notify you when the product launches." });
    expect($toasts.get()).toEqual([
      expect.objectContaining({
        title: 'Thanks for joining!',
        description: "We'll notify you when the product launches.",
        variant: 'default',
        open: true,
      }),
    ]);
  });

  it('keeps at most one toast: a new one replaces the old', () => {
    toast({ title: 'first' });
    toast({ title: 'second', variant: 'destructive' });
    const toasts = $toasts.get();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ title: 'second', variant: 'destructive' });
  });

  it('hides a dismissed toast and removes it after TOAST_REMOVE_DELAY', () => {
    const { id, dismiss } = toast({ title: 'hello', duration: Number.POSITIVE_INFINITY });
    dismiss();
    expect($toasts.get()).toEqual([expect.objectContaining({ id, open: false })]);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toEqual([]);
  });

  it('dismisses itself after its duration, then waits for removal', () => {
    toast({ title: 'auto' });
    vi.advanceTimersByTime(TOAST_DEFAULT_DURATION - 1);
    expect($toasts.get()[0]?.open).toBe(true);
    vi.advanceTimersByTime(1);
    expect($toasts.get()[0]?.open).toBe(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);
    expect($toasts.get()).toEqual([]);
  });

  it('keeps a toast with an infinite duration open until dismissed', () => {
    toast({ title: 'sticky', duration: Number.POSITIVE_INFINITY });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY * 2);
    expect($toasts.get()[0]).toMatchObject({ title: 'sticky', open: true });
  });

  it('dismisses every toast when no id is given', () => {
    toast({ title: 'one' });
    dismissToast();
    expect($toasts.get().every((t) => !t.open)).toBe(true);
  });

  it('does not let the timer of a replaced toast touch its successor', () => {
    toast({ title: 'old', duration: 1000 });
    toast({ title: 'new', duration: Number.POSITIVE_INFINITY });
    vi.advanceTimersByTime(5000);
    expect($toasts.get()).toEqual([expect.objectContaining({ title: 'new', open: true })]);
  });

  it('notifies subscribers of every change', () => {
    const seen: number[] = [];
    const unsubscribe = $toasts.listen((value) => seen.push(value.length));
    toast({ title: 'x' });
    removeToast();
    unsubscribe();
    expect(seen).toEqual([1, 0]);
  });
});
