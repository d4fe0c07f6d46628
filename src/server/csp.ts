/**
 * The browser content-security policy. Production allows exactly the hosts sign-in
 * needs; development adds inline/eval scripts and localhost connections. Inline scripts that Astro
 * emits for islands (and its one inline style) are allowed by their sha256 hashes, computed from the built pages, so an
 * injected inline script is still blocked.
 */
export interface CspOptions {
  mode: 'production' | 'development';
  /** Origin of the product's own API when it is not this origin. */
  apiOrigin?: string;
  /** Firebase hosted-auth domain, e.g. my-project.firebaseapp.com. */
  authDomain?: string;
  /** Origin of the Firebase Auth Emulator, when sign-in runs against it. */
  authEmulatorOrigin?: string;
  scriptHashes?: readonly string[];
  styleHashes?: readonly string[];
  /** Only over https: on plain-http localhost an upgrade would send every asset to a dead port. */
  upgradeInsecureRequests: boolean;
}

const GOOGLE_SIGN_IN = 'https://accounts.google.com';
const GOOGLE_APIS = 'https://apis.google.com';

export function contentSecurityPolicy(options: CspOptions): string {
  const dev = options.mode === 'development';
  const extra = (...values: (string | undefined | false)[]) => values.filter((v): v is string => Boolean(v));
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': [
      "'self'",
      GOOGLE_SIGN_IN,
      GOOGLE_APIS,
      ...(options.scriptHashes ?? []).map((hash) => `'sha256-${hash}'`),
      ...extra(dev && "'unsafe-inline'", dev && "'unsafe-eval'"),
    ],
    'connect-src': [
      "'self'",
      ...extra(options.apiOrigin, options.authEmulatorOrigin),
      GOOGLE_SIGN_IN,
      'https://*.googleapis.com',
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      'https://github.com',
      'https://api.github.com',
      ...extra(dev && 'http://localhost:*', dev && 'ws://localhost:*', dev && 'http://127.0.0.1:*'),
    ],
    'frame-src': [
      GOOGLE_SIGN_IN,
      'https://github.com',
      ...extra(options.authDomain && `https://${options.authDomain}`, options.authEmulatorOrigin),
    ],
    'img-src': [
      "'self'",
      'https://*.googleusercontent.com',
      'https://avatars.githubusercontent.com',
      'blob:',
      'data:',
    ],
    'style-src': [
      "'self'",
      'https://fonts.googleapis.com',
      ...(options.styleHashes ?? []).map((hash) => `'sha256-${hash}'`),
    ],
    'font-src': ["'self'", 'https://fonts.gstatic.com'],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  const policy = Object.entries(directives).map(([name, values]) => `${name} ${values.join(' ')}`);
  if (options.upgradeInsecureRequests) policy.push('upgrade-insecure-requests');
  return policy.join('; ');
}
