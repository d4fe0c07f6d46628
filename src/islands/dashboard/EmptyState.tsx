import type { ComponentChildren } from 'preact';

export function EmptyState({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <div class="mt-8 rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center">
      <h2 class="text-lg font-semibold text-ink">{title}</h2>
      <div class="mt-2 text-sm text-slate-600">{children}</div>
    </div>
  );
}
