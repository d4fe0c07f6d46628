import { atom } from 'nanostores';

/** One toast at a time; a dismissed toast is removed after 1,000,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
/** How long a toast stays open unless the caller says otherwise. */
export const TOAST_DEFAULT_DURATION = 8_000;

type ToastVariant = 'default' | 'destructive';

export interface Toast {
  id: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  /** False once dismissed: the toast is hidden and waits for its removal. */
  open: boolean;
}

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds until it dismisses itself; `Infinity` keeps it until the user closes it. */
  duration?: number;
}

export const $toasts = atom<Toast[]>([]);

const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
const dismissTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function clearTimers(id: string) {
  for (const timers of [removeTimers, dismissTimers]) {
    const timer = timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(id);
  }
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      removeToast(id);
    }, TOAST_REMOVE_DELAY),
  );
}

/** Shows a toast. A new toast replaces the one on screen (the limit is one). */
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter += 1;
  const id = String(counter);
  const next: Toast = {
    id,
    title: input.title,
    description: input.description,
    variant: input.variant ?? 'default',
    open: true,
  };
  const all = [next, ...$toasts.get()];
  for (const dropped of all.slice(TOAST_LIMIT)) clearTimers(dropped.id);
  $toasts.set(all.slice(0, TOAST_LIMIT));
  const duration = input.duration ?? TOAST_DEFAULT_DURATION;
  if (Number.isFinite(duration)) {
    dismissTimers.set(
      id,
      setTimeout(() => dismissToast(id), duration),
    );
  }
  return { id, dismiss: () => dismissToast(id) };
}

/** Hides one toast, or every toast when no id is given; removal follows after TOAST_REMOVE_DELAY. */
export function dismissToast(id?: string): void {
  const toasts = $toasts.get();
  for (const t of toasts) {
    if (id !== undefined && t.id !== id) continue;
    const timer = dismissTimers.get(t.id);
    if (timer !== undefined) clearTimeout(timer);
    dismissTimers.delete(t.id);
    scheduleRemoval(t.id);
  }
  $toasts.set(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

/** Drops a toast from the store at once, or all of them when no id is given. */
export function removeToast(id?: string): void {
  const toasts = $toasts.get();
  for (const t of toasts) if (id === undefined || t.id === id) clearTimers(t.id);
  $toasts.set(id === undefined ? [] : toasts.filter((t) => t.id !== id));
}
