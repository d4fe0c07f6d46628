import { map } from 'nanostores';
import type { ScanQuota, Tier } from '../../model/profile.ts';
import type { Provider } from './messages.ts';

/** The signed-in identity, as Firebase reports it. */
export interface AuthUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
  provider: Provider;
  emailVerified: boolean;
}

/** The auth context's profile, with the server's real quota. */
export interface ClientProfile {
  displayName: string | null;
  email: string | null;
  photoURL: string | null;
  tier: Tier;
  provider: Provider;
  scanQuota: Pick<ScanQuota, 'daily' | 'used' | 'remaining'>;
  createdAt?: string;
  lastLoginAt?: string;
}

type ConfigStatus = 'checking' | 'configured' | 'not-configured' | 'error';

export interface AuthState {
  user: AuthUser | null;
  /** The server's answer; null while unknown, never invented (see `profileError`). */
  userProfile: ClientProfile | null;
  /** Why the plan and quota could not be loaded; the UI offers a retry. */
  profileError: string | null;
  /** True until the first auth state is known, and during sign-in and sign-out. */
  loading: boolean;
  error: string | null;
  configStatus: ConfigStatus;
  configError: string | null;
}

/** Shared by every island on a page: nanostores tell a new subscriber the current state at once. */
export const $auth = map<AuthState>({
  user: null,
  userProfile: null,
  profileError: null,
  loading: true,
  error: null,
  configStatus: 'checking',
  configError: null,
});

/** What the UI says when GET /auth/user failed and the plan and quota are unknown. */
export const PROFILE_UNAVAILABLE_MESSAGE = 'Your plan and scan quota could not be loaded.';

let firebaseLoaded = false;

/** Once Firebase runs on a page it reports every change itself; the cached session steps aside. */
export function markFirebaseLoaded(): void {
  firebaseLoaded = true;
}

export function isFirebaseLoaded(): boolean {
  return firebaseLoaded;
}
