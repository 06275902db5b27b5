import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_REFERENCE, currentApiReference } from '../../scripts/api-reference.js';
import { methods } from '../../src/methods/methodRegistry.js';

describe('docs/api.md, the API reference', () => {
  it('is what the OpenAPI document renders to now (npm run docs:api)', () => {
    expect(readFileSync(API_REFERENCE, 'utf8'), 'docs/api.md is stale: npm run docs:api').toBe(
      currentApiReference(),
    );
  });

  it.each([...methods.keys()])(
    'has a section for %s with a parameter table and an example',
    (name) => {
      const reference = currentApiReference();
      const section = reference.split(`\n### ${name}\n`)[1]?.split('\n### ')[0] ?? '';
      expect(section).toContain('Parameters:');
      expect(section).toContain(`/api/v1/${name}`);
    },
  );
});

describe('method examples', () => {
  it.each([...methods.values()].map((m) => [m.name, m] as const))(
    "%s's example passes its own parameter schema",
    (_name, method) => {
      const parsed = method.params.safeParse(method.example);
      expect(parsed.error?.issues ?? []).toEqual([]);
    },
  );
});
