/**
 * The floor: what any Node HTTP service spends on this machine to answer a scenario's request
 * — Fastify reading it, the rate limiter's one Redis script, the scenario's captured SQL
 * replayed exactly as the raw twin replays it, and the captured answer written as JSON.
 * Nothing else: no key check, validation, SQL building, rendering, logging or metrics.
 * floor/raw is the bound this machine puts on API/raw (the load generator, HTTP and Redis
 * share the same two cores); API/floor is how much of the service's own work is left.
 *
 *   node dist-bench/bench/servers/floorServer.js   (built by `npm run bench`)
 * Environment: DATABASE_URL, REDIS_URL, PORT, HOST, BENCH_FLOOR_FILE (JSON written by
 * scenarios/suite.ts: `{ templates: [{ queries, response }] }`; requests take the templates
 * in turn), and
 * BENCH_FLOOR_REDIS=off to leave the script out (what one Redis round trip costs at least).
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { RequestCounter } from '../../src/admission/limiters/requestCounter.js';
import type { CapturedQuery } from '../lib/capture.js';
import { replay } from '../lib/load.js';

interface FloorTemplate {
  queries: CapturedQuery[];
  response: unknown;
}

const { templates } = JSON.parse(readFileSync(process.env.BENCH_FLOOR_FILE!, 'utf8')) as {
  templates: FloorTemplate[];
};
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const redis = new Redis(process.env.REDIS_URL!, { enableOfflineQueue: false });
const counter = new RequestCounter(redis, {
  limit: 1e9,
  brake: 1e9,
  prefix: 'lkfloor:',
  versionKey: 'lkfloor:epoch',
});

const withRedis = process.env.BENCH_FLOOR_REDIS !== 'off';
let served = 0;
const app = Fastify({ logger: false });
app.route({
  method: ['GET', 'POST'],
  url: '/api/v1/:method',
  handler: async (_request, reply) => {
    const i = served++;
    const template = templates[i % templates.length]!;
    if (withRedis) {
      await counter.count({ failuresKey: 'floor-ip', accountKey: 'floor-account' }, Date.now());
    }
    await replay(pool, template, i);
    return reply.type('application/json').send(JSON.stringify(template.response));
  },
});
app.get('/readyz', async () => ({ status: 'ok' }));

await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
await Promise.all(Array.from({ length: 10 }, () => pool.query('select 1')));
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => {
  void app.close().then(async () => {
    await pool.end();
    redis.disconnect();
    process.exit(0);
  });
});
