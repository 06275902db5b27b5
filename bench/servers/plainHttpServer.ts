/**
 * What the bench's bare HTTP servers (floorServer.ts, twinServer.ts) share: Fastify without
 * the service's steps, a pool of ten connections, the rate limiter's one Redis script per
 * request (what any limited service pays at least), `/readyz`, and a drain on SIGTERM.
 * Environment: DATABASE_URL, REDIS_URL, PORT, HOST.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { RequestCounter } from '../../src/admission/limiters/requestCounter.js';

export interface PlainHttpServer {
  app: FastifyInstance;
  pool: pg.Pool;
  /** the limiter's script for one request */
  counted: () => Promise<unknown>;
  /** waits for Redis and the pool, then listens on PORT */
  listen: () => Promise<void>;
}

/** `name` keeps each server's limiter keys apart in Redis (`lk<name>:`). */
export function plainHttpServer(name: string): PlainHttpServer {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const redis = new Redis(process.env.REDIS_URL!, { enableOfflineQueue: false });
  const counter = new RequestCounter(redis, {
    limit: 1e9,
    brake: 1e9,
    prefix: `lk${name}:`,
    versionKey: `lk${name}:epoch`,
  });
  const app = Fastify({ logger: false, bodyLimit: 1 << 20 });
  app.get('/readyz', async () => ({ status: 'ok' }));
  return {
    app,
    pool,
    counted: () =>
      counter.count({ failuresKey: `${name}-ip`, accountKey: `${name}-account` }, Date.now()),
    async listen() {
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
    },
  };
}
