// The OpenAPI document fed to the tools people use on it: a 3.1 validator
// (@seriousme/openapi-schema-validator), Redocly's linter with its recommended rules, and
// openapi-typescript, whose generated types a small client is compiled against with TypeScript.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../src/server/openapi.ts';

const document = openApiDocument();
const source = JSON.stringify(document);
const dir = mkdtempSync(join(tmpdir(), 'dw-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the OpenAPI document in the tools', { timeout: 60_000 }, () => {
  it('is valid OpenAPI 3.1 to a schema validator', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("has no error under Redocly's recommended rules", async () => {
    const problems = await lintFromString({
      source,
      absoluteRef: join(dir, 'openapi.json'),
      config: await createConfig({ extends: ['recommended'] }),
    });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`);
    expect(errors).toEqual([]);
  });

  it('generates types that a client compiles against, each operation by its name and answer', async () => {
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(source)));
    // What a user of the generated types writes: an operation's answer and parameters by operationId.
    writeFileSync(
      join(dir, 'client.ts'),
      [
        "import type { operations, paths } from './api.ts';",
        "type Findings = operations['listFindings']['responses'][200]['content']['application/json'];",
        "type Query = NonNullable<operations['listFindings']['parameters']['query']>;",
        "export const state: Query['state'] = 'accepted';",
        "export const route: keyof paths = '/api/v1/findings';",
        'export function count(page: Findings): number {',
        '  return page.findings.length;',
        '}',
        '',
      ].join('\n'),
    );
    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
