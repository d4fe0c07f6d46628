import type { ClientDirective } from 'astro';
import { SESSION_CACHE_KEY, SESSION_MAX_AGE_MS } from '../../model/session.ts';

/** A live cached session; one past the 24-hour limit is dropped here, as the header would. */
function hasSession(): boolean {
  try {
    const raw = localStorage.getItem(SESSION_CACHE_KEY);
    if (raw === null) return false;
    const session = JSON.parse(raw);
    if (session?.user && Date.now() - session.authTime < SESSION_MAX_AGE_MS) return true;
    localStorage.removeItem(SESSION_CACHE_KEY);
    return false;
  } catch {
    return false;
  }
}

/**
 * `client:session`: hydrates the island only for a visitor with a cached session, now or when one
 * appears (sign-in in another tab). A signed-out visitor keeps the server-rendered HTML and never
 * downloads the island or React.
 */
const sessionDirective: ClientDirective = (load) => {
  const hydrate = async () => (await load())();
  if (hasSession()) {
    void hydrate();
    return;
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_CACHE_KEY || !hasSession()) return;
    window.removeEventListener('storage', onStorage);
    void hydrate();
  };
  window.addEventListener('storage', onStorage);
};

export default sessionDirective;
