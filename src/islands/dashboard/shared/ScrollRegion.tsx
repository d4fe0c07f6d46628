import type { ReactNode } from 'react';

interface ScrollRegionProps {
  /** Names the region for screen readers, and for keyboard users who land on it. */
  label: string;
  children: ReactNode;
  className?: string;
}

/**
 * A box that scrolls its wide or long content (a table) instead of the page. It takes keyboard focus,
 * so a keyboard user can scroll it too (WCAG 2.1.1; axe `scrollable-region-focusable`). It is positioned:
 * else a screen-reader-only label in a far column would escape the clipping and widen the page.
 */
export function ScrollRegion({ label, children, className = '' }: ScrollRegionProps) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users scroll the region from it
      tabIndex={0}
      className={`relative overflow-auto focus-visible:outline-2 focus-visible:outline-brand-600 ${className}`}
    >
      {children}
    </section>
  );
}
