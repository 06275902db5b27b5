import { eq, sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.js';
import { accounts } from '../infra/db/schema/index.js';
import type { Caller } from './caller.js';

/**
 * The hot key lookup, prepared once per database: parsed and planned once per connection,
 * not on every request.
 */
export function createKeyLookup(db: Database) {
  const statement = db
    .select({
      accountId: accounts.id,
      email: accounts.email,
      name: accounts.name,
      plan: accounts.plan,
      blocked: accounts.blocked,
      createdAt: accounts.createdAt,
    })
    .from(accounts)
    .where(eq(accounts.apiKeyHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('account_by_key_hash');
  return async (hash: string): Promise<Caller | undefined> => {
    const rows = await statement.execute({ hash });
    return rows[0];
  };
}
