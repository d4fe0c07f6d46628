import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

// React's act() warns unless the environment says it is a test's.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/**
 * A React root in a <div> of its own in the document for each test of the file, unmounted and
 * removed after it (happy-dom), for the island tests that click and type.
 */
export function reactRoot(): { readonly container: HTMLElement; readonly root: Root } {
  let container: HTMLElement | undefined;
  let root: Root | undefined;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(async () => {
    await act(async () => root?.unmount());
    container?.remove();
  });
  return {
    get container() {
      if (!container) throw new Error('reactRoot: used outside a test');
      return container;
    },
    get root() {
      if (!root) throw new Error('reactRoot: used outside a test');
      return root;
    },
  };
}
