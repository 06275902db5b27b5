import type pg from 'pg';

/**
 * A query whose answer never comes — a server that hangs after taking it, a network gone
 * quiet mid-statement — must not hold its request, and its pooled connection, for ever. Each
 * pool is watched once a second: a connection that has waited for the same query longer than
 * `limitMs` is destroyed, so the query fails as a lost connection (503, databaseErrors.ts) and
 * the pool opens another.
 *
 * Not pg's own `query_timeout`, which did this per query: it wraps each query's callback and
 * arms a timer holding the query. Under load V8 then kept the results' rows alive until a full
 * collection: about 2 MB of every young-generation collection was promoted (the page's rows,
 * ~20 KB a read) and each scavenge paused 4–5 ms instead of ~2, the service's p99 above a plain
 * pg server's at the lightest reads (docs/benchmarks.md, "pg's `query_timeout` promoted every
 * page"). The watch allocates nothing per query: two counters on the client.
 */

/** What the watch knows of one connection. */
interface Watched {
  /** queries handed to the client, and how many of them were answered (at each 'drain') */
  sent: number;
  answered: number;
  /** the `sent` the last sweep saw waiting, and since when */
  waitingFor: number;
  waitingSince: number;
}

/** How often the connections are looked at: a stuck query ends within limit + 2 × this. */
const SWEEP_MS = 1000;

/** Watches `pool`'s connections until it ends. */
export function endUnansweredQueries(pool: pg.Pool, limitMs: number, sweepMs = SWEEP_MS): void {
  const watched = new Map<pg.Client, Watched>();
  pool.on('connect', (client) => {
    const state: Watched = { sent: 0, answered: 0, waitingFor: 0, waitingSince: 0 };
    watched.set(client, state);
    const send = client.query.bind(client);
    // one closure per connection, none per query
    client.query = ((...args: Parameters<typeof send>) => {
      state.sent += 1;
      return send(...args);
    }) as typeof client.query;
    // pg drains when its queue is empty: every query sent so far has its answer
    client.on('drain', () => {
      state.answered = state.sent;
    });
  });
  pool.on('remove', (client) => watched.delete(client));
  const timer = setInterval(() => {
    if (pool.ending) return clearInterval(timer);
    const now = Date.now();
    for (const [client, state] of watched) {
      if (state.answered === state.sent) continue;
      if (state.waitingFor !== state.sent) {
        state.waitingFor = state.sent;
        state.waitingSince = now;
      } else if (now - state.waitingSince >= limitMs) {
        watched.delete(client);
        client.connection.stream.destroy();
      }
    }
  }, sweepMs);
  // a pool not yet ended never keeps the process alive either
  timer.unref();
}
