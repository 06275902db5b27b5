import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { queryRows, type Database } from '../infra/db/client.js';
import { walKey } from '../infra/db/replicas.js';

/** How long an account's last write position is kept: far past any replica a read may use. */
const KEEP_MS = 3_600_000;

/** Stores a position unless a later one is there already (walKeys compare as strings). */
const KEEP_LATER = `
local current = redis.call('GET', KEYS[1])
if current and current >= ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

type RedisWithKeepLater = Redis & {
  lkKeepLater(key: string, position: string, keepMs: number): Promise<number>;
};

/**
 * Where in the WAL each account's last write ended, for read-your-writes on replicas: kept
 * in Redis, where every instance's request script reads it (limiters/requestCounter.ts);
 * without Redis (one instance) in this process.
 */
export class LastWrites {
  private readonly own = new Map<number, string>();
  private readonly redis: RedisWithKeepLater | undefined;
  /**
   * The cluster's system identifier, in every key: positions are only comparable within one
   * cluster (and its physical replicas, which share it). A database restored into a new
   * cluster starts from lower positions; under the old keys its reads would wait an hour.
   */
  private cluster: string | undefined;
  private readonly clusterKnown: Promise<void>;

  constructor(
    private readonly db: Database,
    redis: Redis | undefined,
    private readonly prefix: string,
    private readonly log: Pick<Logger, 'warn'>,
  ) {
    if (redis && !('lkKeepLater' in redis)) {
      redis.defineCommand('lkKeepLater', { numberOfKeys: 1, lua: KEEP_LATER });
    }
    this.redis = redis as RedisWithKeepLater | undefined;
    this.clusterKnown = this.readCluster();
  }

  /** The key of an account's position; undefined until the cluster is known (reads: primary). */
  key(accountId: number): string | undefined {
    return this.cluster && `${this.prefix}lastwrite:${this.cluster}:a${accountId}`;
  }

  private async readCluster(): Promise<void> {
    for (let attempt = 0; this.cluster === undefined; attempt++) {
      try {
        const [row] = await queryRows<{ id: string }>(
          this.db,
          sql`select system_identifier::text as id from pg_control_system()`,
        );
        this.cluster = row?.id;
      } catch (err) {
        if (attempt === 0)
          this.log.warn({ err }, 'could not read the cluster identifier; retrying');
        await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** attempt)));
      }
    }
  }

  /**
   * After a write committed: the primary's WAL position now is at or past its commit. A
   * failure is logged, never answered: the write is done (docs/scaling.md says what it costs).
   */
  async record(accountId: number): Promise<void> {
    try {
      await this.clusterKnown;
      const [row] = await queryRows<{ lsn: string }>(
        this.db,
        sql`select pg_current_wal_lsn()::text as lsn`,
      );
      if (!row) return;
      const position = walKey(row.lsn);
      if (this.redis) await this.redis.lkKeepLater(this.key(accountId)!, position, KEEP_MS);
      else if ((this.own.get(accountId) ?? '') < position) this.own.set(accountId, position);
    } catch (err) {
      this.log.warn({ err, accountId }, 'could not record the position of a write');
    }
  }

  /** Without Redis: this process's record ('' for none). */
  ownPosition(accountId: number): string {
    return this.own.get(accountId) ?? '';
  }
}
