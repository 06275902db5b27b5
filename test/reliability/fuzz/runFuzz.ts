import fc from 'fast-check';
import type { TestApp } from '../../helpers/testApp.js';
import { problemsWith, prototypeSnapshot } from './checks.js';
import { freshTargets, type FuzzWorld } from './fixture.js';
import { requestArb } from './params.js';
import { hasMalformed, send, type FuzzRequest } from './request.js';

/** Requests per method: 1,000 in CI; FUZZ_RUNS=10000 for the larger run (docs/reliability.md). */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
/** Replay a failure with FUZZ_SEED=<seed in the failure message>. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** The environment of a fuzzed app: limits out of the way, so every answer is the method's own. */
export const FUZZ_ENV = {
  RATE_LIMIT_PER_MINUTE: '1000000000',
  FAILED_AUTH_PER_MINUTE: '1000000000',
  LOG_LEVEL: 'warn',
};

export interface FuzzTally {
  requests: number;
  statuses: Record<number, number>;
}

function describeRequest(r: FuzzRequest): string {
  const json = (v: unknown) => {
    const text = JSON.stringify(v, (_k, x: unknown) =>
      typeof x === 'string' && x.length > 200 ? `${x.slice(0, 200)}…(${x.length})` : x,
    );
    return text && text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  };
  return `${r.method} via ${r.via}, key ${json(r.key)}${r.oversize ? ', oversize' : ''}\nparams: ${json(r.params)}${r.rawBody !== undefined ? `\nraw body: ${json(r.rawBody)}` : ''}${r.rawSuffix ? `\nraw suffix: ${r.rawSuffix.slice(0, 200)}` : ''}`;
}

/**
 * Sends FUZZ_RUNS generated requests to `method` and throws on the first answer the documentation
 * does not allow: a 5xx, a status outside the method's list, a body outside the error rules's shapes,
 * a stack trace, SQL or a path in a body, or a changed global prototype.
 */
export async function fuzzMethod(t: TestApp, world: FuzzWorld, method: string): Promise<FuzzTally> {
  const ids = await freshTargets(t, world);
  const prototypes = prototypeSnapshot();
  const tally: FuzzTally = { requests: 0, statuses: {} };
  const seed = FUZZ_SEED + [...method].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0);
  const result = await fc.check(
    fc.asyncProperty(requestArb(method, ids), async (r) => {
      const { res, text } = await send(t.app, r, world.keys);
      tally.requests++;
      tally.statuses[res.statusCode] = (tally.statuses[res.statusCode] ?? 0) + 1;
      const problems = problemsWith(
        r,
        res,
        text,
        r.rawBody === undefined && hasMalformed(r.params),
      );
      if (prototypeSnapshot() !== prototypes) problems.push('a global prototype changed');
      if (({} as Record<string, unknown>).polluted !== undefined)
        problems.push('Object.prototype polluted');
      if (problems.length > 0) {
        const id = String(res.headers['x-request-id']);
        const log = t.logs
          .filter((l) => l.includes(id))
          .join('')
          .slice(0, 3000);
        throw new Error(
          `${problems.join('; ')}\n${describeRequest(r)}\nanswer ${res.statusCode}: ${res.body.slice(0, 1000)}\nserver log: ${log}`,
        );
      }
    }),
    { seed, numRuns: FUZZ_RUNS, endOnFailure: true },
  );
  if (result.failed) {
    // fast-check's own report prints the whole counterexample (megabytes); ours is trimmed
    const why = result.errorInstance instanceof Error ? result.errorInstance.message : 'failed';
    throw new Error(`fuzzing ${method} failed; replay with FUZZ_SEED=${FUZZ_SEED}\n${why}`);
  }
  return tally;
}
