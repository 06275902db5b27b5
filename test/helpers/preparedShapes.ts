import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import { keptPlansOf } from '../../src/infra/db/keptPlans.js';

/** A statement a connection holds under its shape's name, with how it was planned. */
export interface PreparedShape {
  name: string;
  statement: string;
  generic_plans: number;
  custom_plans: number;
}

/**
 * The statements the connection `db` runs on holds under their shape's name
 * (infra/db/shapeStatements.ts), oldest first: a test of kept plans gives its app one
 * connection, so this is what that connection holds. By default the connection of the
 * sessions the service sends those statements to (infra/db/keptPlans.ts); `pool`: the
 * database's own.
 */
export function preparedShapes(
  db: Database,
  on: 'kept' | 'pool' = 'kept',
): Promise<PreparedShape[]> {
  const session = on === 'kept' ? ((keptPlansOf(db) as Database | undefined) ?? db) : db;
  return queryRows<PreparedShape>(
    session,
    sql`select name, statement, generic_plans::int as generic_plans,
          custom_plans::int as custom_plans
        from pg_prepared_statements
        where name like 'lk_shape_%' order by prepare_time`,
  );
}
