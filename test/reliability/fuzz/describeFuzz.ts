import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { buildWorld, type FuzzWorld } from './fixture.js';
import { FUZZ_ENV, FUZZ_RUNS, FUZZ_SEED, fuzzMethod } from './runFuzz.js';

/**
 * Hostile input, fuzzed (docs/reliability.md "Hostile input"): one app and one world of
 * accounts, lists and contacts per test file, then FUZZ_RUNS generated requests per method
 * over query, JSON and form, each answer checked against what the method may answer.
 */
export function describeFuzz(methods: string[]): void {
  let t: TestApp;
  let world: FuzzWorld;

  beforeAll(async () => {
    t = await startTestApp({ env: FUZZ_ENV });
    world = await buildWorld(t);
  });
  afterAll(() => t?.close());

  describe(`fuzzed requests (seed ${FUZZ_SEED}; docs/decisions.md: 400 malformed, 413 oversized)`, () => {
    it.each(methods)(
      `%s answers ${FUZZ_RUNS} hostile requests over query, JSON and form only as allowed`,
      async (method) => {
        const tally = await fuzzMethod(t, world, method);
        console.log(`fuzz ${method}: ${tally.requests} requests ${JSON.stringify(tally.statuses)}`);
        expect(tally.requests).toBeGreaterThanOrEqual(FUZZ_RUNS);
        // the generators must reach past validation: some answers succeed
        expect(Object.keys(tally.statuses).some((s) => Number(s) < 300)).toBe(true);
      },
      Math.max(120_000, FUZZ_RUNS * 300),
    );
  });
}
