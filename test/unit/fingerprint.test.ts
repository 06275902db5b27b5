import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from '../../src/idempotency/fingerprint.js';

describe('request fingerprints', () => {
  it('write JSON with sorted keys, arrays in order', () => {
    expect(canonicalJson({ b: 1, a: [3, { d: null, c: 'x' }], e: true })).toBe(
      '{"a":[3,{"c":"x","d":null}],"b":1,"e":true}',
    );
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });

  it('match whatever the order of keys, and differ for other values or methods', () => {
    const a = requestFingerprint('m', { x: 1, y: { p: 1, q: 2 } });
    expect(requestFingerprint('m', { y: { q: 2, p: 1 }, x: 1 })).toBe(a);
    expect(requestFingerprint('m', { x: 2, y: { p: 1, q: 2 } })).not.toBe(a);
    expect(requestFingerprint('n', { x: 1, y: { p: 1, q: 2 } })).not.toBe(a);
  });

  it('take a value nested 100,000 levels deep (a JSON body can be)', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = { a: [deep] };
    expect(requestFingerprint('m', { deep })).toMatch(/^[0-9a-f]{64}$/);
  });
});
