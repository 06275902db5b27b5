/**
 * How each table would be placed on Citus (docs/scaling.md, "Distribution on Citus"). The
 * tenant key is the owning account: a distributed table carries it in its primary key and in
 * every unique index, and every statement a request sends to it names it. A test reads the
 * catalog against this map (test/integration/tenantKeys.test.ts), and every table of the
 * `public` schema must be in it, so a new table has to be placed before it ships. (The
 * migrator's own table lives in the `drizzle` schema and stays on the coordinator.)
 */

/** Distributed tables, by their tenant column, colocated with one another, in the order they are placed. */
export const DISTRIBUTED_TABLES = {
  bots: 'owner_id',
  list_layouts: 'owner_id',
  list_schemas: 'owner_id',
  list_items: 'owner_id',
  list_band_counts: 'owner_id',
  list_value_counts: 'owner_id',
  list_field_erasures: 'owner_id',
  contacts: 'owner_id',
  contact_variables: 'owner_id',
  contact_stats: 'owner_id',
  changes: 'account_id',
  idempotency_keys: 'owner_id',
} as const;

/**
 * Reference tables: small, read from every node. `webhooks` is one because delivery claims
 * due webhooks of every account with FOR UPDATE SKIP LOCKED, which Citus runs only on one
 * shard or on a reference table.
 */
export const REFERENCE_TABLES = [
  'accounts',
  'projects',
  'project_members',
  'webhooks',
  'change_feed_state',
] as const;

/**
 * A foreign key between placed tables as the catalog gives it: Citus refuses to place tables
 * that local tables refer to, so the placement step drops each one first and adds it back.
 */
export type ForeignKey = { tbl: string; conname: string; def: string };

/**
 * The Citus statements, in order: reference tables first (distributed tables refer to them),
 * then the distributed ones, each colocated with the first so a tenant's rows of every table
 * share one node and joins on the tenant key stay on it.
 */
export function citusSteps(): string[] {
  return placementStatements(new Set()).map((s) => `${s};`);
}

/**
 * The placing statements for the tables not in `placed`, in citusSteps' order; `distribute`
 * is the function that places a distributed table (the online placement copies concurrently),
 * and `before` names statements to run just before a distributed table is placed.
 */
export function placementStatements(
  placed: ReadonlySet<string>,
  distribute:
    | 'create_distributed_table'
    | 'create_distributed_table_concurrently' = 'create_distributed_table',
  before: Readonly<Record<string, readonly string[]>> = {},
): string[] {
  const steps = REFERENCE_TABLES.filter((t) => !placed.has(t)).map(
    (t) => `SELECT create_reference_table('${t}')`,
  );
  const [first] = Object.keys(DISTRIBUTED_TABLES);
  for (const [table, column] of Object.entries(DISTRIBUTED_TABLES)) {
    if (placed.has(table)) continue;
    const colocate = table === first ? '' : `, colocate_with => '${first}'`;
    steps.push(
      ...(before[table] ?? []),
      `SELECT ${distribute}('${table}', '${column}'${colocate})`,
    );
  }
  return steps;
}
