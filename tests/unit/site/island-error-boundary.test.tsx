import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import {
  ISLAND_FALLBACK_MESSAGE,
  IslandErrorBoundary,
} from '../../../src/islands/ui/IslandErrorBoundary.tsx';

describe('IslandErrorBoundary', () => {
  it('uses the whole-application fallback text of the spec', () => {
    expect(ISLAND_FALLBACK_MESSAGE).toBe('Something went wrong. Please refresh the page and try again.');
  });

  it('renders its children when nothing throws', () => {
    const html = renderToString(
      <IslandErrorBoundary>
        <p>fine</p>
      </IslandErrorBoundary>,
    );
    expect(html).toBe('<p>fine</p>');
  });

  // Server rendering does not run error boundaries (it rethrows), so the lifecycle is driven by hand
  // here, the way React's client renderer drives it when a child throws.
  it('switches to the fallback alert after a child throws, and logs the error', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const boundary = new IslandErrorBoundary({ children: <p>fine</p> });
    expect(renderToString(boundary.render() as ReactElement)).toBe('<p>fine</p>');
    const error = new Error('kaboom');
    boundary.state = { ...boundary.state, ...IslandErrorBoundary.getDerivedStateFromError() };
    boundary.componentDidCatch(error);
    const html = renderToString(boundary.render() as ReactElement);
    expect(html).toContain('role="alert"');
    expect(html).toContain(ISLAND_FALLBACK_MESSAGE);
    expect(html).not.toContain('kaboom');
    expect(logged).toHaveBeenCalledWith('Island crashed:', error);
    logged.mockRestore();
  });
});
