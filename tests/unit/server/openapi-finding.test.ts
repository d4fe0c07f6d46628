import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  FINDING_RECORD_TYPES,
  FINDING_STATUSES,
  type FindingView,
  NAME_SOURCES,
  RISKS,
} from '../../../src/model/contract.ts';
import type { Finding } from '../../../src/scanner/types.ts';
import { findingSchema, openApiDocument } from '../../../src/server/openapi.ts';

/** A finding with every field the contract has: the type checker refuses a missing or extra one. */
const complete: Required<FindingView> = {
  subdomain: 'assets.example.com',
  recordType: 'CNAME',
  target: 'assets.example.com.s3-website-us-east-1.amazonaws.com',
  service: 'AWS S3',
  status: 'claimable',
  risk: 'high',
  evidence: ['assets.example.com CNAME assets.example.com.s3-website-us-east-1.amazonaws.com'],
  explanation: 'The bucket this name points at does not exist; anyone can create it.',
  proofOfConcept: 'Create the bucket and serve a page from it.',
  remediation: 'Remove the CNAME record.',
  sources: ['ct', 'zone'],
  proof: {
    check: 's3-bucket',
    answer: { name: 'assets.example.com', free: true, said: '404 NoSuchBucket' },
    checkedAt: '2026-11-27T12:00:00.000Z',
  },
  key: 'dw:0123456789abcdef0123456789abcdef01234567',
};

interface JsonSchemaObject {
  properties: Record<string, { enum?: string[]; items?: { enum?: string[] } }>;
  required: string[];
}

describe('one finding type: the contract, the scan engine and the OpenAPI document', () => {
  it('the zod schema of the document, the contract and the engine have the same type (checked by tsc)', () => {
    expectTypeOf<z.infer<typeof findingSchema>>().toEqualTypeOf<FindingView>();
    // The engine's finding has no key: a workspace's stored scans add it.
    expectTypeOf<Finding>().toEqualTypeOf<Required<Omit<FindingView, 'key'>>>();
    expect(findingSchema.strict().parse(complete)).toEqual(complete);
  });

  it("the document's Finding names every field of the contract, its optional ones and its values", () => {
    const schema = (openApiDocument().components.schemas as unknown as Record<string, JsonSchemaObject>)
      .Finding;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(Object.keys(complete).sort());
    expect(schema?.required.sort()).toEqual(
      Object.keys(complete)
        .filter((key) => key !== 'sources' && key !== 'proof' && key !== 'key')
        .sort(),
    );
    expect(schema?.properties.status?.enum).toEqual([...FINDING_STATUSES]);
    expect(schema?.properties.risk?.enum).toEqual([...RISKS]);
    expect(schema?.properties.recordType?.enum).toEqual([...FINDING_RECORD_TYPES]);
    expect(schema?.properties.sources?.items?.enum).toEqual([...NAME_SOURCES]);
  });
});
