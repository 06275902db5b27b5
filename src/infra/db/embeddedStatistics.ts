import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.js';

/**
 * Embedded PGlite has no autovacuum, and its activity statistics count no modifications, so
 * the planner's statistics of a table stay what the last ANALYZE saw while the table grows.
 * Without them it costs a lookup by a record's id in a large list as if the list were tiny,
 * and may walk a whole list's index instead of the primary key, so an update's cost grows
 * with the list (test/integration/itemWritePlans.test.ts shows it). So the background loop
 * analyses again every table that has at least doubled in size since its last ANALYZE and
 * grown by 1 MB or more: a handful of times over a table's life, each a sample of 30,000
 * rows. Returns the tables analysed.
 */
export async function analyzeGrownTables(db: Database): Promise<string[]> {
  const grown = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
          and pg_relation_size(c.oid) >= 8192::bigint * greatest(2 * c.relpages, c.relpages + 128)
        order by c.relname`,
  );
  for (const { name } of grown) await db.execute(sql`analyze ${sql.identifier(name)}`);
  return grown.map((t) => t.name);
}
