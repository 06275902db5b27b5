import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One SQL statement on a connection of its own, outside any transaction. */
export type RunSql = (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * Migrations that only add indexes to tables that may hold millions of rows. `npm run
 * migrate` builds their indexes first with CREATE INDEX CONCURRENTLY (writes go on), so the
 * migration's own `CREATE INDEX IF NOT EXISTS` finds them built. (Migration 0012's indexes
 * are built the same way, after its fill: ownerKeys.ts.)
 */
const INDEX_ONLY_MIGRATIONS = [
  '0013_number_date_count_indexes.sql',
  '0014_covering_number_date_indexes.sql',
  '0017_first_string_in_range_indexes.sql',
];

/**
 * Builds the indexes of the pending index-only migrations online, on a database whose
 * list_items already has owner_id (migration 0011; older databases take the migrations as
 * they are). Does nothing on a fresh database, for a migration the folder's journal does not
 * list, for one behind a pending migration that is not index-only, or for one already
 * applied (a start on an up-to-date database sends two queries); an index already built and
 * valid is left alone.
 */
export async function prebuildIndexes(run: RunSql, migrationsFolder: string): Promise<void> {
  const { rows } = await run(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as tracked from pg_attribute
     where attrelid = to_regclass('public.list_items') and attname = 'owner_id'`,
  );
  if (rows.length === 0) return;
  // drizzle applies the journal's entries made after the last one it recorded
  let applied = 0;
  if ((rows[0] as { tracked: boolean }).tracked) {
    const last = await run(`select max(created_at) as applied from drizzle.__drizzle_migrations`);
    applied = Number((last.rows[0] as { applied: string | number | null }).applied ?? 0);
  }
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
  ) as { entries: { tag: string; when: number }[] };
  for (const entry of journal.entries) {
    if (entry.when <= applied) continue;
    const file = `${entry.tag}.sql`;
    // a pending migration that changes tables comes first: the indexes after it may name
    // what it adds (0017's name 0016's list_key), so the migrator builds them in order
    if (!INDEX_ONLY_MIGRATIONS.includes(file)) return;
    await buildIndexesOnline(run, migrationsFolder, file);
  }
}

/** Every `CREATE [UNIQUE] INDEX IF NOT EXISTS` of a migration, built CONCURRENTLY. */
export async function buildIndexesOnline(
  run: RunSql,
  migrationsFolder: string,
  file: string,
): Promise<void> {
  const migration = readFileSync(path.join(migrationsFolder, file), 'utf8');
  for (const match of migration.matchAll(
    /CREATE (?:UNIQUE )?INDEX IF NOT EXISTS "(\w+)" ON [^;]+/g,
  )) {
    await buildConcurrently(run, match[1]!, match[0]);
  }
}

/** `create`: the migration's statement, `CREATE [UNIQUE] INDEX IF NOT EXISTS "name" ON …` */
async function buildConcurrently(run: RunSql, name: string, create: string): Promise<void> {
  const { rows } = await run(
    `select i.indisvalid as valid from pg_index i
     where i.indexrelid = to_regclass($1)`,
    [`public.${name}`],
  );
  const existing = rows[0] as { valid: boolean } | undefined;
  if (existing?.valid) return;
  // a build cut short leaves an invalid index that IF NOT EXISTS would keep
  if (existing) await run(`drop index concurrently "${name}"`);
  await run(create.replace(/INDEX IF NOT EXISTS/, 'INDEX CONCURRENTLY IF NOT EXISTS'));
}
