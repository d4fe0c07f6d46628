// The OpenAPI document as the tools people feed it to read it: every component schema compiles
// under JSON Schema 2020-12 (OpenAPI 3.1's dialect) in strict Ajv, every operation has a unique
// operationId, the servers are named, and the API guide lists the findings' states the API takes.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { FINDING_STATES } from '../../../src/model/contract.ts';
import { openApiDocument } from '../../../src/server/openapi.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type Operation = { operationId?: string };
const document = openApiDocument() as unknown as {
  servers?: { url: string }[];
  components: { schemas: Record<string, Record<string, unknown>> };
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
};
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  METHODS.flatMap((method) => (item[method] ? [{ path, method, operation: item[method] }] : [])),
);

describe('the OpenAPI document', () => {
  it('has no $id on a component schema, where 2020-12 forbids a fragment', () => {
    for (const schema of Object.values(document.components.schemas)) expect(schema).not.toHaveProperty('$id');
    expect(JSON.stringify(document)).not.toContain('"$id"');
  });

  it('compiles every component schema, and every $ref between them, under JSON Schema 2020-12', () => {
    // The components as one 2020-12 schema's $defs, their $refs pointing there as they point into
    // the document: Ajv resolves each, and refuses a fragment $id or an unknown keyword (strict).
    const defs = JSON.parse(
      JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'),
    ) as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'https://danglewatch.test/components', $defs: defs });
    for (const id of Object.keys(defs)) {
      expect(() => ajv.compile({ $ref: `https://danglewatch.test/components#/$defs/${id}` })).not.toThrow();
    }
    expect(Object.keys(document.components.schemas).length).toBeGreaterThan(5);
  });

  it('names every operation with an operationId, each once, for generated clients', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      'getOpenApiDocument',
      'listDomains',
      'listScans',
      'startScan',
      'getScan',
      'listFindings',
    ]);
  });

  it('names the server it describes', () => {
    expect(document.servers).toEqual([
      { url: '/', description: 'The DangleWatch server that serves this document' },
    ]);
  });

  it("the API guide lists every findings' state the API takes, accepted included", () => {
    const guide = readFileSync(new URL('../../../src/content/editorial/api.mdx', import.meta.url), 'utf8');
    const row = guide.split('\n').find((line) => line.includes('GET /api/v1/findings?'));
    for (const state of FINDING_STATES) expect(row).toContain(`\`${state}\``);
  });
});
