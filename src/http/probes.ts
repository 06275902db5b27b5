import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../appDeps.js';

/** /healthz: the process is up. /readyz: Postgres (and Redis when configured) answer. */
export function registerProbes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const [postgres, redis] = await Promise.all([
      deps.db.execute(sql`select 1`).then(
        () => true,
        () => false,
      ),
      deps.redis
        ? deps.redis.ping().then(
            () => true,
            () => false,
          )
        : Promise.resolve(null),
    ]);
    const ready = postgres && redis !== false;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'unavailable',
      postgres,
      redis,
      limiter: deps.limiter.backend(),
      key_cache: deps.keyCache.isLive() ? 'live' : 'off',
      // a replica that is down or behind is skipped, never a reason to be unready
      ...(deps.replication
        ? {
            replicas: deps.replication.replicas.replicas.map(({ state }) => ({
              name: state.name,
              up: state.up,
              replay_paused: state.paused,
              lag_bytes: state.lagBytes ?? null,
            })),
          }
        : {}),
    });
  });
}
