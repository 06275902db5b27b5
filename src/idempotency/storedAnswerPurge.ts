import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';

const BATCH = 10_000;

/**
 * Deletes expired answers in batches (short transactions, no long lock); returns how many. By
 * primary key, not by `ctid`, which Citus cannot plan here (changePurge.ts).
 */
export async function purgeExpiredKeys(db: Database, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from idempotency_keys where (owner_id, key) in (
              select owner_id, key from idempotency_keys where expires_at <= now() limit ${BATCH})
            returning 1)
          select count(*)::int as n from gone`,
    );
    total += row?.n ?? 0;
    if ((row?.n ?? 0) < BATCH || signal?.aborted) return total;
  }
}
