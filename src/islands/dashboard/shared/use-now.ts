import { useEffect, useState } from 'react';

/** The current time, updated every `everyMs`: keeps 'Updated 5m ago' badges true while the page stays open. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
