import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// A reader can follow every reference: issues and specification sections live outside this
// repository, so a comment or doc states the rule itself, or names the file that does
// (docs/fixed-contract.md for texts that may not change). Public standards (RFC 1035 §5.1) and
// another project's issues, named with their project, can be looked up by anyone; so can those of
// the fingerprint catalogue, whose every entry links the threads it cites in its `sources`.
const root = resolve(import.meta.dirname, '../..');
const FOLDERS = ['src', 'tests', 'bench', 'bin', 'docs', '.ci'];
const FILES = ['README.md'];

function* textFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(path);
    else if (/\.(ts|tsx|js|mjs|astro|mdx|md|sh)$/.test(entry.name) || !entry.name.includes('.')) yield path;
  }
}

const SPEC_SECTION = /\bspec(ification)?\s+\d+\b|(?<!RFC \d+ )§\s?\d/i;
const ISSUE_NUMBER = /\bissues?\s+#?\d+|\(#\d+\)/i;
const NAMED_PROJECT = /can-i-take-over-(xyz|dns)/;
const LINKED_SOURCES = join(root, 'src/scanner/fingerprints/catalogue.ts');

describe('references', () => {
  const files = [
    ...FOLDERS.flatMap((folder) => [...textFiles(join(root, folder))]),
    ...FILES.map((f) => join(root, f)),
  ];

  it('reads the repository', () => {
    expect(files.length).toBeGreaterThan(500);
  });

  it('no comment or doc cites an issue number or a specification section outside the repository', () => {
    const citing = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          SPEC_SECTION.test(line) ||
          (ISSUE_NUMBER.test(line) && !NAMED_PROJECT.test(line) && file !== LINKED_SOURCES)
            ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(citing).toEqual([]);
  });
});
