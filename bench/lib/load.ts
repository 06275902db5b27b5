/**
 * Load on loopback with fixed connections and duration: autocannon against the server, and
 * the "raw" twin — the captured queries of the same request replayed through a plain pg
 * pool of the server's size by as many concurrent workers as autocannon has connections.
 * Latencies are kept per request (ms, hrtime) so sub-millisecond percentiles are exact.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import type { CapturedQuery } from './capture.js';
import { quantile } from './stats.js';

export interface LoadResult {
  requests: number;
  /** the run's length, which bounds the rate of a side that answered nothing */
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** A run's result from its successful requests' latencies (ms), its length and its failures. */
function summarise(latencies: number[], seconds: number, errors: number): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
  };
}

/** autocannon; `next(i)` gives the i-th request (writes vary their bodies). */
export async function loadHttp(
  url: string,
  apiKey: string,
  next: (i: number) => HttpRequest,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  let i = 0;
  const latencies: number[] = [];
  let bad = 0;
  let firstBad = '';
  let finish!: (r: autocannon.Result) => void;
  let fail!: (e: unknown) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const instance = autocannon(
    {
      url,
      connections,
      duration: seconds,
      headers: {
        authorization: `Bearer ${apiKey}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      requests: [
        {
          setupRequest: (req) => {
            const r = next(i++);
            return { ...req, method: r.method, path: r.path, body: r.body };
          },
          onResponse: (status, body) => {
            if (status >= 300 && !firstBad) firstBad = `${status} ${body.slice(0, 300)}`;
          },
        },
      ],
    },
    (err, result) => (err ? fail(err) : finish(result)),
  );
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
    else bad++;
  });
  const result = await done;
  if (firstBad) console.error(`  first failed response: ${firstBad}`);
  return summarise(latencies, seconds, bad + result.errors + result.timeouts);
}

/** One captured request: its queries, with values to vary per replay. */
export interface RawTemplate {
  queries: CapturedQuery[];
  /** replaces values that must differ per request (ids of inserted rows and the like) */
  vary?: (values: unknown[] | undefined, i: number) => unknown[] | undefined;
}

/**
 * Replays the request's stages in order, the queries of one stage together. A query inside
 * a transaction runs on that transaction's client (held from BEGIN to COMMIT/ROLLBACK, as
 * the service holds it); any other query takes a pool client for itself, as pool.query does.
 */
export async function replay(pool: pg.Pool, t: RawTemplate, i: number) {
  const held = new Map<number, pg.PoolClient>();
  const stages = new Map<number, CapturedQuery[]>();
  for (const q of t.queries) stages.set(q.stage, [...(stages.get(q.stage) ?? []), q]);
  try {
    for (const stage of stages.values()) {
      const byClient = new Map<number, CapturedQuery[]>();
      for (const q of stage) byClient.set(q.client, [...(byClient.get(q.client) ?? []), q]);
      await Promise.all(
        [...byClient].map(async ([id, list]) => {
          for (const q of list) {
            const config = {
              text: q.text,
              values: t.vary ? t.vary(q.values, i) : q.values,
              name: q.name,
              ...(q.rowMode === 'array' ? { rowMode: 'array' as const } : {}),
            };
            if (/^\s*begin\b/i.test(q.text)) held.set(id, await pool.connect());
            const client = held.get(id);
            if (!client) {
              await pool.query(config);
              continue;
            }
            await client.query(config);
            if (/^\s*(commit|rollback)\b/i.test(q.text)) {
              client.release();
              held.delete(id);
            }
          }
        }),
      );
    }
  } finally {
    for (const client of held.values()) client.release();
  }
}

/** Closed loop: `connections` workers replay templates round-robin for `seconds`. */
export async function loadRaw(
  databaseUrl: string,
  poolSize: number,
  templates: RawTemplate[],
  connections: number,
  seconds: number,
  /** index of the first request (rounds of one scenario must not repeat a write's values) */
  firstIndex = 0,
): Promise<LoadResult> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // open the pool's connections first, as the server's are warm when measured
  await Promise.all(Array.from({ length: poolSize }, () => pool.query('select 1')));
  const { result, firstError } = await closedLoop(
    connections,
    seconds,
    (n) => replay(pool, templates[n % templates.length]!, n),
    firstIndex,
  );
  await pool.end();
  if (firstError) console.error(`  first raw error: ${firstError}`);
  return result;
}

/**
 * `connections` workers, each sending `request(i)` and the next when it is answered, for
 * `seconds`; `i` counts every request from `firstIndex`. A request that throws is a failure.
 */
export async function closedLoop(
  connections: number,
  seconds: number,
  request: (i: number) => Promise<unknown>,
  firstIndex = 0,
): Promise<{ result: LoadResult; firstError: string | undefined }> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let i = firstIndex;
  const end = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const worker = async () => {
    while (process.hrtime.bigint() < end) {
      const n = i++;
      const start = process.hrtime.bigint();
      try {
        await request(n);
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      } catch (err) {
        errors++;
        firstError ??= String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { result: summarise(latencies, seconds, errors), firstError };
}
