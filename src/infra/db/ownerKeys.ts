import { buildIndexesOnline, type RunSql } from './onlineIndexes.js';

/** Rows per statement of the fill: one short autocommitted UPDATE, locking only its rows. */
const FILL_BATCH = 5000;

/** The tables whose owner_id was nullable before migration 0012, with where to read it. */
const FILLED = [
  { table: 'list_items', key: 'text', parent: 'list_schemas', link: 'schema_id' },
  { table: 'contact_variables', key: 'bigint', parent: 'contacts', link: 'contact_id' },
  { table: 'list_field_erasures', key: null, parent: 'list_schemas', link: 'schema_id' },
] as const;

/** The migration this file prepares; its "online" indexes are built here first. */
const OWNER_KEYS_MIGRATION = '0012_owner_keys.sql';

/**
 * The slow half of migration 0012 on a database that has data, done before it without long
 * locks (docs/scaling.md): owner_id filled along each primary key in batches, proven by a
 * CHECK validated while writes go on, and every index the migration creates built with
 * CREATE INDEX CONCURRENTLY. The migration then finds only catalog work to do. Does
 * nothing on a fresh database or once 0012 is applied; safe to run again after a crash
 * (an index a crash left invalid is dropped and built again).
 */
export async function prepareOwnerKeys(run: RunSql, migrationsFolder: string): Promise<boolean> {
  if (!(await ownerKeysPending(run))) return false;
  for (const target of FILLED) await fillOwners(run, target);
  for (const { table } of FILLED) await proveNotNull(run, table);
  await buildIndexesOnline(run, migrationsFolder, OWNER_KEYS_MIGRATION);
  return true;
}

/**
 * Whether the database holds tables from before migration 0012: list_items exists and its
 * owner_id may still be null. False on a fresh database and once 0012 is applied.
 */
export async function ownerKeysPending(run: RunSql): Promise<boolean> {
  const { rows } = await run(
    `select a.attnotnull as done from pg_attribute a
     where a.attrelid = to_regclass('public.list_items') and a.attname = 'owner_id'`,
  );
  const state = rows[0] as { done: boolean } | undefined;
  return state !== undefined && !state.done;
}

/** The tables whose owner_id a fill may have written (list_layouts: by 0012 itself). */
const REFILLED_TABLES = [...FILLED.map((t) => t.table), 'list_layouts'];

/**
 * After a fill: the planner's statistics still say owner_id is null everywhere, and with
 * them it planned a 40-record page of a migrated list as a nested loop over every record of
 * the owner (a minute a query, seen in the benchmark). ANALYZE reads them again; VACUUM sets
 * the visibility map the fill cleared, so index-only scans are index-only again at once.
 * Neither blocks writes. PGlite (one process, small databases) runs ANALYZE only.
 */
export async function refreshStatistics(run: RunSql, vacuum: boolean): Promise<void> {
  for (const table of REFILLED_TABLES) {
    await run(`${vacuum ? 'vacuum (analyze)' : 'analyze'} ${table}`);
  }
}

/** Validates the foreign keys a migration added NOT VALID (a scan that blocks no writer). */
export async function validateForeignKeys(run: RunSql): Promise<void> {
  const { rows } = await run(
    `select conrelid::regclass::text as tbl, conname from pg_constraint
     where contype = 'f' and not convalidated and connamespace = 'public'::regnamespace`,
  );
  for (const row of rows as { tbl: string; conname: string }[]) {
    await run(`alter table ${row.tbl} validate constraint "${row.conname}"`);
  }
}

async function fillOwners(run: RunSql, target: (typeof FILLED)[number]): Promise<void> {
  const { table, key, parent, link } = target;
  const fill = (where: string) => `
    update ${table} t set owner_id = p.owner_id from ${parent} p
    where ${where} and t.owner_id is null and p.id = t.${link}`;
  const missing = async () =>
    (
      (await run(`select exists (select 1 from ${table} where owner_id is null) as missing`))
        .rows[0] as { missing: boolean }
    ).missing;
  if (!(await missing())) return;
  // a handful of rows (erasures in progress): one statement
  if (key === null) {
    await run(fill('true'));
    return;
  }
  // along the primary key (id), so each batch finds its rows by index, filled or not
  let last: string | null = null;
  for (;;) {
    const { rows } = await run(
      `with batch as (
         select id from ${table} ${last === null ? '' : `where id > $2::${key}`}
         order by id limit $1),
       filled as (${fill('t.id in (select id from batch)')})
       select (select max(id)::text from batch) as last`,
      last === null ? [FILL_BATCH] : [FILL_BATCH, last],
    );
    last = (rows[0] as { last: string | null }).last;
    if (last === null) return;
  }
}

/** A validated CHECK lets the migration's SET NOT NULL skip its scan under an exclusive lock. */
async function proveNotNull(run: RunSql, table: string): Promise<void> {
  const name = `${table}_owner_id_not_null`;
  const { rows } = await run(
    `select convalidated from pg_constraint where conname = $1 and conrelid = $2::regclass`,
    [name, table],
  );
  if (rows.length === 0) {
    await run(`alter table ${table} add constraint ${name} check (owner_id is not null) not valid`);
  }
  if (!(rows[0] as { convalidated?: boolean } | undefined)?.convalidated) {
    await run(`alter table ${table} validate constraint ${name}`);
  }
}
