/** A small inline spinner for lists that load inside a section. */
export function Spinner({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="flex justify-center py-12">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600" />
    </div>
  );
}
