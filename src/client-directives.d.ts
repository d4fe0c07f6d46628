import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate only when the visitor has a cached session (src/islands/auth/session-directive.ts). */
    'client:session'?: boolean;
  }
}
