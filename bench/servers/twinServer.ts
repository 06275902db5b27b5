/**
 * The sweep's plain-table twin served through HTTP: what the best generic tool could be on
 * this machine. Fastify reads the request, the rate limiter's one Redis script runs (as for
 * the floor server), the twin's statements run as sent, and the rows come back as JSON. No
 * key check, validation, SQL building or rendering: the request carries its SQL.
 *
 *   node dist-bench/bench/servers/twinServer.js   (built by `npm run bench` and `bench:sweep`)
 *
 * POST /read `{ page, count, values }`: the page's rows, then the count, answered as
 * `{ data, meta: { total } }`. POST /write `{ sql, values }`: one statement, `{ written }`.
 * Environment: DATABASE_URL, REDIS_URL, PORT, HOST.
 */
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { RequestCounter } from '../../src/admission/limiters/requestCounter.js';

interface ReadBody {
  page: string;
  count: string;
  values: unknown[];
}
interface WriteBody {
  sql: string;
  values: unknown[];
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const redis = new Redis(process.env.REDIS_URL!, { enableOfflineQueue: false });
const counter = new RequestCounter(redis, {
  limit: 1e9,
  brake: 1e9,
  prefix: 'lktwin:',
  versionKey: 'lktwin:epoch',
});
const counted = () =>
  counter.count({ failuresKey: 'twin-ip', accountKey: 'twin-account' }, Date.now());

const app = Fastify({ logger: false, bodyLimit: 1 << 20 });
app.post<{ Body: ReadBody }>('/read', async (request, reply) => {
  await counted();
  const { page, count, values } = request.body;
  const rows = (await pool.query(page, values)).rows;
  const total = Number((await pool.query<{ n: string }>(count, values)).rows[0]!.n);
  return reply.type('application/json').send(JSON.stringify({ data: rows, meta: { total } }));
});
app.post<{ Body: WriteBody }>('/write', async (request) => {
  await counted();
  const { sql, values } = request.body;
  return { written: (await pool.query(sql, values)).rowCount };
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
