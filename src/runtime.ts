import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AppDeps } from './appDeps.js';
import type { KeyLookup } from './admission/authenticate.js';
import { wireAdmission } from './admission/wireAdmission.js';
import type { Config } from './config.js';
import { sessionOptionsOf, type DatabaseHandle } from './infra/db/client.js';
import { ContactWriteQueue } from './contacts/contactLocks.js';
import { MemoryPagingHints } from './contacts/memoryPagingHints.js';
import { RedisPagingHints } from './contacts/redisPagingHints.js';
import { createListsContext } from './lists/context.js';
import { WebhookStats } from './webhooks/stats.js';
import { createFieldCipher } from './lists/encryption/cipher.js';
import { connectRedis } from './infra/redis.js';
import { ReplicaSet } from './infra/db/replicas.js';
import { LastWrites } from './replication/lastWrites.js';
import { createReplication } from './replication/readRouting.js';
import type { KeptCountOptions } from './lists/items/keptCounts.js';

export interface Runtime {
  deps: AppDeps;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  redisPrefix?: string;
  clock?: () => Date;
  /** wraps the Postgres key lookup (tests count or pause it) */
  wrapKeyLookup?: (lookup: KeyLookup) => KeyLookup;
  /**
   * the least total a new range bound starts from (rangeNeighbours.ts); tests of small lists
   * set 0 to take that path
   */
  neighbourMinTotal?: number;
  /** when a list's band and value counts answer a read (keptCounts.ts); tests set them low */
  keptCounts?: Partial<KeptCountOptions>;
}

/** Wires the app's dependencies from config and an open database. */
export function createRuntime(
  config: Config,
  database: DatabaseHandle,
  log: Logger,
  options: RuntimeOptions = {},
): Runtime {
  if (!config.encryptionKey) throw new Error('ENCRYPTION_KEY is not set');
  const clock = options.clock ?? (() => new Date());
  const redisPrefix = options.redisPrefix ?? 'lk:';
  let redis: Redis | undefined;
  let subscriber: Redis | undefined;
  if (config.redisUrl) {
    redis = connectRedis(config.redisUrl, log, 'listkeeper');
    subscriber = connectRedis(config.redisUrl, log, 'listkeeper-sub');
  }
  const lastWrites =
    config.postgres.replicaUrls.length > 0 && database.kind === 'postgres'
      ? new LastWrites(database.db, redis, redisPrefix, log)
      : undefined;
  const { authenticate, keyCache, limiter } = wireAdmission({
    config,
    db: database.db,
    log,
    now: () => clock().getTime(),
    redis: redis && subscriber && { commands: redis, subscriber, prefix: redisPrefix },
    wrapLookup: options.wrapKeyLookup,
    lastWriteKey: lastWrites && ((accountId) => lastWrites.key(accountId)),
  });

  const cipher = createFieldCipher(config.encryptionKey, config.encryptionOldKeys);
  const deps: AppDeps = {
    config,
    db: database.db,
    pool: database.pool,
    redis,
    redisPrefix,
    authenticate,
    keyCache,
    limiter,
    clock,
    cipher,
    lists: createListsContext(database.db, cipher, clock, config.listCacheRows, {
      neighbourMinTotal: options.neighbourMinTotal,
      keptCounts: options.keptCounts,
      log,
    }),
    contactPagingHints: redis ? new RedisPagingHints(redis, redisPrefix) : new MemoryPagingHints(),
    contactWrites: new ContactWriteQueue(),
    webhookStats: new WebhookStats(),
  };
  if (lastWrites) {
    const replicas = new ReplicaSet(
      config.postgres.replicaUrls,
      database,
      log,
      sessionOptionsOf(config.postgres),
    );
    // until the first poll answers, every read goes to the primary
    void replicas.start();
    deps.replication = createReplication(deps, replicas, lastWrites);
  }
  return {
    deps,
    async close() {
      await deps.replication?.replicas.close();
      subscriber?.disconnect();
      redis?.disconnect();
      await database.close();
    },
  };
}
