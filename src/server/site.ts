import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file of the built site, held in memory with its gzip form and, for pages, its inline hashes. */
interface SiteFile {
  body: Buffer;
  gzip?: Buffer;
  contentType: string;
  immutable: boolean;
  scriptHashes: string[];
  styleHashes: string[];
}

export interface Site {
  find(pathname: string): SiteFile | undefined;
  notFound: SiteFile | undefined;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

const COMPRESSIBLE = new Set([
  '.html',
  '.css',
  '.js',
  '.mjs',
  '.json',
  '.svg',
  '.txt',
  '.xml',
  '.webmanifest',
]);

/** Hashes of inline <script> and <style> blocks, as a CSP needs them. Data blocks (JSON) never run. */
export function inlineHashes(html: string): { scriptHashes: string[]; styleHashes: string[] } {
  const hash = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
  const scriptHashes = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(
      ([, attrs]) =>
        !/\bsrc\s*=/i.test(attrs ?? '') && !/type\s*=\s*["']?application\/(ld\+)?json/i.test(attrs ?? ''),
    )
    .map(([, , body]) => hash(body ?? ''));
  const styleHashes = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map(([, body]) =>
    hash(body ?? ''),
  );
  return { scriptHashes: [...new Set(scriptHashes)], styleHashes: [...new Set(styleHashes)] };
}

/**
 * Loads the built site into memory. `pricing.html` answers /pricing, `index.html` answers / and a
 * directory's `index.html` answers the directory's path.
 */
export function loadSite(distDir: string): Site {
  const routes = new Map<string, SiteFile>();
  if (!existsSync(distDir)) return { find: () => undefined, notFound: undefined };
  for (const path of walk(distDir)) {
    const ext = extname(path);
    const body = readFileSync(path);
    const isHtml = ext === '.html';
    const file: SiteFile = {
      body,
      gzip: COMPRESSIBLE.has(ext) && body.length > 512 ? gzipSync(body, { level: 9 }) : undefined,
      contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
      immutable: relative(distDir, path).startsWith(`_astro${sep}`),
      ...(isHtml ? inlineHashes(body.toString('utf8')) : { scriptHashes: [], styleHashes: [] }),
    };
    const url = `/${relative(distDir, path).split(sep).join('/')}`;
    routes.set(url, file);
    if (isHtml) {
      const route = url.replace(/(\/index)?\.html$/, '') || '/';
      routes.set(route, file);
    }
  }
  return {
    find: (pathname) => routes.get(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname),
    notFound: routes.get('/404'),
  };
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}
