import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RateLimiter } from '../admission/limiters/limiter.js';
import type { DeliveryOutcome, WebhookStats } from '../webhooks/stats.js';
import type { ReplicaState } from '../infra/db/replicas.js';

export interface MetricsSources {
  limiter: RateLimiter;
  webhooks: WebhookStats;
  clock: () => Date;
  /** Postgres only; embedded PGlite has no pool */
  pool?: pg.Pool;
  /** read replicas (DATABASE_REPLICA_URLS), if any */
  replicas?: readonly { state: ReplicaState }[];
}

/** What the request hook records for one API call. */
export interface ApiCall {
  method: string;
  status: number;
  seconds: number;
}

export interface Metrics {
  registry: Registry;
  record(call: ApiCall): void;
}

/**
 * The service's Prometheus metrics, on a registry of its own (not prom-client's global
 * one), so that several apps in one process (tests) never share counters.
 */
export function createMetrics({
  limiter,
  pool,
  webhooks,
  clock,
  replicas,
}: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'listkeeper_api_requests_total',
    help: 'API calls by method and response status',
    labelNames: ['method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'listkeeper_api_request_duration_seconds',
    help: 'API call latency by method, from request received to response sent',
    labelNames: ['method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'listkeeper_rate_limited_requests_total',
    help: 'API calls refused with 429 by the rate limiter, by method',
    labelNames: ['method'] as const,
    registers: [registry],
  });

  new Gauge({
    name: 'listkeeper_rate_limiter_backend',
    help: 'Which store the rate limiter uses: 1 for the current one (redis, or the in-process memory fallback)',
    labelNames: ['backend'] as const,
    registers: [registry],
    collect() {
      const current = limiter.backend();
      this.set({ backend: 'redis' }, current === 'redis' ? 1 : 0);
      this.set({ backend: 'memory' }, current === 'memory' ? 1 : 0);
    },
  });

  if (pool) registerPoolGauges(registry, pool);
  registerWebhookMetrics(registry, webhooks, clock);
  if (replicas && replicas.length > 0) registerReplicaMetrics(registry, replicas);

  return {
    registry,
    record({ method, status, seconds }) {
      requests.inc({ method, status: String(status) });
      duration.observe({ method }, seconds);
      if (status === 429) rateLimited.inc({ method });
    },
  };
}

function registerPoolGauges(registry: Registry, pool: pg.Pool): void {
  new Gauge({
    name: 'listkeeper_db_pool_connections',
    help: 'Postgres pool connections by state (in_use = checked out by a query)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: 'listkeeper_db_pool_max_connections',
    help: 'Size limit of the Postgres pool',
    registers: [registry],
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });
  new Gauge({
    name: 'listkeeper_db_pool_waiting_requests',
    help: 'Queries waiting for a free Postgres connection',
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

function registerWebhookMetrics(registry: Registry, stats: WebhookStats, clock: () => Date) {
  new Counter({
    name: 'listkeeper_webhook_deliveries_total',
    help: 'Webhook delivery attempts of this process by outcome (delivered, failed and retried later, failed and disabled)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(stats.outcomes)) {
        this.inc({ outcome: outcome as DeliveryOutcome }, n);
      }
    },
  });
  new Gauge({
    name: 'listkeeper_webhook_oldest_undelivered_seconds',
    help: 'Age of the oldest change a webhook delivered by this process has not had taken yet (0: none waiting)',
    registers: [registry],
    collect() {
      this.set(stats.oldestUndeliveredSeconds(clock()));
    },
  });
}

function registerReplicaMetrics(registry: Registry, replicas: readonly { state: ReplicaState }[]) {
  const each = (set: (state: ReplicaState) => void) => () => replicas.forEach((r) => set(r.state));
  new Gauge({
    name: 'listkeeper_db_replica_up',
    help: 'Whether a read replica answers and replays (1), or is skipped (0: down, paused, not a standby)',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      each((s) => this.set({ replica: s.name }, s.up && !s.paused ? 1 : 0))();
    },
  });
  new Gauge({
    name: 'listkeeper_db_replica_lag_bytes',
    help: 'Bytes of WAL a read replica had not replayed at its last poll (-1: unknown)',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      each((s) => this.set({ replica: s.name }, s.lagBytes ?? -1))();
    },
  });
  new Counter({
    name: 'listkeeper_db_replica_reads_total',
    help: 'Reads served by a replica, and reads a replica failed (then served by the primary)',
    labelNames: ['replica', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      each((s) => {
        this.inc({ replica: s.name, outcome: 'served' }, s.reads);
        this.inc({ replica: s.name, outcome: 'failed' }, s.failures);
      })();
    },
  });
}
