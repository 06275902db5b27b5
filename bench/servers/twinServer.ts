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
import { plainHttpServer } from './plainHttpServer.js';

interface ReadBody {
  page: string;
  count: string;
  values: unknown[];
}
interface WriteBody {
  sql: string;
  values: unknown[];
}

const { app, pool, counted, listen } = plainHttpServer('twin');
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

await listen();
