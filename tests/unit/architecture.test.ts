import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layers of the README's 'Where things live', as imports: each folder of src/ may import only the folders
// listed for it (and npm packages, except the ones it must know nothing of).
const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

const MAY_IMPORT: Record<string, { folders: string[]; packages?: RegExp }> = {
  model: { folders: ['model'] },
  lib: { folders: ['lib', 'model'] },
  islands: { folders: ['islands', 'lib', 'model'] },
  // Rendered at build time: the home page counts the fingerprint catalogue.
  components: { folders: ['components', 'islands', 'lib', 'model', 'content', 'scanner'] },
  pages: { folders: ['pages', 'components', 'islands', 'lib', 'model', 'content', 'styles'] },
  content: { folders: ['content', 'components', 'model'] },
  db: { folders: ['db', 'model'] },
  // The outside APIs' clients: beside the engine, below core; the engine's proof checks, zone
  // providers and cloud inventories call through them, and they know nothing of either.
  connectors: { folders: ['connectors', 'model'], packages: /^(hono|@hono\/|pg-boss|react|drizzle-orm)/ },
  scanner: { folders: ['scanner', 'connectors', 'model'], packages: /^(hono|@hono\/|pg-boss|react)/ },
  core: {
    folders: ['core', 'db', 'model', 'scanner', 'connectors'],
    packages: /^(hono|@hono\/|pg-boss|react)/,
  },
  server: { folders: ['server', 'core', 'db', 'model', 'scanner', 'connectors'], packages: /^pg-boss/ },
  worker: {
    folders: ['worker', 'core', 'db', 'model', 'scanner', 'connectors'],
    packages: /^(hono|@hono\/)/,
  },
  start: { folders: ['start', 'server', 'worker', 'core', 'db', 'model', 'scanner', 'connectors'] },
  cli: { folders: ['cli', 'start', 'core', 'db', 'model', 'scanner', 'connectors'] },
};

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|astro|mdx)$/.test(entry.name)) yield path;
  }
}

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(SPECIFIER)].map((m) => (m[1] ?? m[2]) as string);
}

function folderOf(path: string): string {
  return relative(src, path).split('/')[0] as string;
}

describe('layers', () => {
  const files = [...sourceFiles(src)];

  it('finds the source folders it knows', () => {
    const folders = new Set(files.map(folderOf));
    for (const folder of Object.keys(MAY_IMPORT)) expect(folders, folder).toContain(folder);
  });

  it('every import stays within the folders its layer may use', () => {
    const broken: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      const rule = MAY_IMPORT[from];
      if (!rule) continue;
      for (const specifier of importsOf(file)) {
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          if (!target.startsWith(`${src}/`)) continue;
          const to = folderOf(target);
          if (!rule.folders.includes(to))
            broken.push(`${relative(root, file)} imports ${relative(root, target)}`);
        } else if (rule.packages?.test(specifier)) {
          broken.push(`${relative(root, file)} imports the package ${specifier}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  const withSql = (folder: string) =>
    files
      .filter((file) => relative(src, file).startsWith(folder))
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return /from 'drizzle-orm'/.test(text) || /^import \{[^}]*\} from '[./]*db\/schema\.ts'/m.test(text);
      })
      .map((file) => relative(root, file));

  it('routes hold no SQL: they call the services of src/core', () => {
    expect(files.filter((file) => relative(src, file).startsWith('server/routes/')).length).toBeGreaterThan(
      10,
    );
    expect(withSql('server/routes/')).toEqual([]);
  });

  it('the worker holds no SQL: a job reads its payload, calls the services of src/core and acknowledges', () => {
    expect(files.filter((file) => relative(src, file).startsWith('worker/jobs/')).length).toBeGreaterThan(5);
    expect(withSql('worker/')).toEqual([]);
  });
});

/**
 * src/core's folders as a graph, an edge for each folder one of its files imports: it has no
 * cycle, so each concept can be read, changed and tested with only the ones below it. Its root
 * files (access, audit, errors, limits…) are below every folder and import none.
 */
describe("core's folders", () => {
  const core = join(src, 'core');
  const coreFiles = [...sourceFiles(core)];
  const folderIn = (path: string) => {
    const parts = relative(core, path).split('/');
    return parts.length > 1 ? (parts[0] as string) : undefined;
  };
  const edges = new Map<string, Map<string, string>>();
  for (const file of coreFiles) {
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(`${core}/`)) continue;
      const from = folderIn(file) ?? '(root)';
      const to = folderIn(target);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      edges.get(from)?.set(to, `${relative(core, file)} imports ${relative(core, target)}`);
    }
  }

  it('has no file at its root that imports a folder', () => {
    expect([...(edges.get('(root)')?.values() ?? [])]).toEqual([]);
  });

  it('form a one-way graph: no folder imports, through others, one that imports it', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (folder: string) => {
      state.set(folder, 'open');
      path.push(folder);
      for (const [next, why] of edges.get(folder) ?? []) {
        if (state.get(next) === 'open') {
          const loop = path.slice(path.indexOf(next));
          cycles.push(`${[...loop, next].join(' → ')} (${why})`);
        } else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(folder, 'done');
    };
    for (const folder of [...edges.keys()].sort()) if (!state.has(folder)) visit(folder);
    expect(edges.size).toBeGreaterThan(10);
    expect(cycles).toEqual([]);
  });
});
