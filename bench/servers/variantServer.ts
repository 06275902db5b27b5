/**
 * The service's app with or without its auth and rate-limit step, for the step's overhead
 * (the suite's target for it: docs/benchmarks.md). Both variants start through this file,
 * so the only difference is that step:
 *   node dist-bench/bench/servers/variantServer.js --auth on|off|script   (built by `npm run bench`)
 * `off` answers every request as the account BENCH_ACCOUNT_ID without looking at the key
 * or counting the request; `script` does the same after sending the request's one Redis
 * script (what the round trip alone costs, without hashing, key cache or decisions).
 * Environment as for dist/main.js.
 */
import pino from 'pino';
import { benchArgs } from '../lib/args.js';
import { buildApp } from '../../src/app.js';
import { connectPostgres } from '../../src/infra/db/client.js';
import { createRuntime } from '../../src/runtime.js';
import { loadConfigOrExit } from '../../src/startup.js';
import { RequestCounter } from '../../src/admission/limiters/requestCounter.js';
import { accountKey } from '../../src/admission/admission.js';
import { KEY_EPOCH_KEY } from '../../src/admission/invalidation.js';

const mode = benchArgs({
  usage: 'node dist-bench/bench/servers/variantServer.js --auth on|off|script',
  about: 'The service with its auth and rate-limit step on, off, or only its Redis script.',
  options: { auth: 'on|off|script  the step: whole, left out, or only its one Redis script' },
}).text('auth');
if (mode !== 'on' && mode !== 'off' && mode !== 'script') {
  throw new Error('usage: variantServer.js --auth on|off|script');
}
const auth = mode === 'on';
const config = loadConfigOrExit();
const log = pino({ level: config.logLevel });
const database = connectPostgres(config.databaseUrl!, log);
const runtime = createRuntime(config, database, log);
if (!auth) {
  const accountId = Number(process.env.BENCH_ACCOUNT_ID);
  const caller = {
    accountId,
    email: 'bench@bench.test',
    name: 'bench',
    plan: 'pro' as const,
    blocked: false,
    createdAt: new Date(),
  };
  const allowed = { allowed: true, limit: 1, remaining: 1, retryAfterSeconds: 60 };
  // Answers in the shape of both the older authenticator (a caller) and the newer one (an
  // admission: caller and rate decision), so the variant does not depend on which is in.
  const admitted = { ...caller, caller, rate: allowed };
  // `script`: no key check, only the request's one Redis script (what the round trip costs)
  const counter =
    mode === 'script' &&
    new RequestCounter(runtime.deps.redis!, {
      limit: config.rateLimitPerMinute,
      brake: config.failedAuthPerMinute,
      prefix: runtime.deps.redisPrefix,
      versionKey: KEY_EPOCH_KEY,
    });
  const admit = counter
    ? async () => {
        await counter.count(
          { failuresKey: 'ip:bench', accountKey: accountKey(accountId) },
          Date.now(),
        );
        return admitted;
      }
    : async () => admitted;
  runtime.deps.authenticate = admit as unknown as typeof runtime.deps.authenticate;
  (runtime.deps as { limiter: unknown }).limiter = {
    hit: async () => allowed,
    peek: async () => allowed,
    backend: () => 'memory',
  };
}
const app = buildApp(runtime.deps);
await app.listen({ host: config.host, port: config.port });
const stop = () => void app.close().then(() => runtime.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
