import type { ReadableAtom } from 'nanostores';
import { useEffect, useState } from 'preact/hooks';

/**
 * Subscribes a component to a nanostores atom. Used instead of @nanostores/react: during the static
 * build that package is loaded outside Vite and picks up the real `react` from node_modules (not
 * preact/compat), which crashes server rendering.
 */
export function useStore<T>(store: ReadableAtom<T>): T {
  const [value, setValue] = useState(() => store.get());
  useEffect(() => store.subscribe((next) => setValue(() => next)), [store]);
  return value;
}
