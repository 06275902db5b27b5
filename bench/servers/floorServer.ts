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
import type { CapturedQuery } from '../lib/capture.js';
import { replay } from '../lib/load.js';
import { plainHttpServer } from './plainHttpServer.js';

interface FloorTemplate {
  queries: CapturedQuery[];
  response: unknown;
}

const { templates } = JSON.parse(readFileSync(process.env.BENCH_FLOOR_FILE!, 'utf8')) as {
  templates: FloorTemplate[];
};
const { app, pool, counted, listen } = plainHttpServer('floor');

const withRedis = process.env.BENCH_FLOOR_REDIS !== 'off';
let served = 0;
app.route({
  method: ['GET', 'POST'],
  url: '/api/v1/:method',
  handler: async (_request, reply) => {
    const i = served++;
    const template = templates[i % templates.length]!;
    if (withRedis) await counted();
    await replay(pool, template, i);
    return reply.type('application/json').send(JSON.stringify(template.response));
  },
});

await listen();
