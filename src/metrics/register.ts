import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import type { ApiMethod } from '../methods/method.js';
import { createMetrics, type Metrics } from './metrics.js';

export const METRICS_PATH = '/metrics';
const API_ROUTE = '/api/v1/:method';

/**
 * Prometheus metrics, not behind the API key. `METRICS=off` turns them off; with
 * `METRICS_PORT` they are served on that port only (the API port answers 404), so the
 * scrape endpoint can stay off the public network.
 */
export function registerMetrics(
  app: FastifyInstance,
  deps: AppDeps,
  methods: ReadonlyMap<string, ApiMethod>,
): void {
  if (!deps.config.metrics.enabled) return;
  const metrics = createMetrics({
    limiter: deps.limiter,
    pool: deps.pool,
    webhooks: deps.webhookStats,
    clock: deps.clock,
    replicas: deps.replication?.replicas.replicas,
  });

  app.addHook('onResponse', (request, reply, done) => {
    if (request.routeOptions.url === API_ROUTE) {
      const name = (request.params as { method?: string }).method ?? '';
      // Only registered names become labels: arbitrary URLs must not grow the series count.
      const method = methods.has(name) ? name : 'unknown';
      metrics.record({ method, status: reply.statusCode, seconds: reply.elapsedTime / 1000 });
    }
    done();
  });

  const port = deps.config.metrics.port;
  if (port === undefined) {
    app.get(METRICS_PATH, async (_request, reply) =>
      reply
        .header('content-type', metrics.registry.contentType)
        .send(await metrics.registry.metrics()),
    );
    return;
  }
  serveOnOwnPort(app, metrics, deps.config.host, port);
}

/** A plain HTTP server on METRICS_PORT, listening only while the app listens. */
function serveOnOwnPort(app: FastifyInstance, metrics: Metrics, host: string, port: number): void {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== METRICS_PATH) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: unknown) => {
        app.log.error({ err }, 'metrics collection failed');
        response.writeHead(500).end();
      },
    );
  });
  app.addHook('onListen', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    }).catch((err: unknown) => {
      // onListen cannot stop the app; say loudly that the metrics are missing.
      app.log.error({ err, port }, 'metrics server could not listen on METRICS_PORT');
    });
  });
  app.addHook('onClose', async () => {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  });
}
