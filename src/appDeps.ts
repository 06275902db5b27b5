import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Authenticator } from './admission/authenticate.js';
import type { KeyCache } from './admission/keyCache.js';
import type { Config } from './config.js';
import type { Database } from './infra/db/client.js';
import type { PagingHints } from './contacts/pagingHints.js';
import type { ContactWriteOrder } from './contacts/contactLocks.js';
import type { FieldCipher } from './lists/encryption/cipher.js';
import type { ListsContext } from './lists/context.js';
import type { RateLimiter } from './admission/limiters/limiter.js';
import type { WebhookStats } from './webhooks/stats.js';
import type { Replication } from './replication/replication.js';

/** Everything the app needs, built by the process entry (main.ts) or by tests. */
export interface AppDeps {
  config: Config;
  db: Database;
  /** Postgres pool behind `db` (absent in embedded mode): read by the metrics */
  pool?: pg.Pool;
  /** commands connection; absent without REDIS_URL */
  redis?: Redis;
  /** prefix for every Redis key this app writes (tests give each file its own) */
  redisPrefix: string;
  authenticate: Authenticator;
  /** the authenticator's key cache: reported by /readyz, inspected by tests */
  keyCache: KeyCache;
  limiter: RateLimiter;
  /** injected so date windows, sunsets and rate windows are testable without sleeping */
  clock: () => Date;
  /** encrypts and decrypts is_encryptable values */
  cipher: FieldCipher;
  /** what list and list item operations need, built once */
  lists: ListsContext;
  /** remembered contact page boundaries and totals: in Redis when configured, else in memory */
  contactPagingHints: PagingHints;
  /**
   * where this process's contact writes wait for each other, holding no connection
   * (UNQUEUED inside a transaction already open)
   */
  contactWrites: ContactWriteOrder;
  /** this process's webhook deliveries, for /metrics */
  webhookStats: WebhookStats;
  /** read replicas (DATABASE_REPLICA_URLS); absent: every query on the primary */
  replication?: Replication<AppDeps>;
}
