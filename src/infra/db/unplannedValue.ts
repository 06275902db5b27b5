import { sql, type SQL } from 'drizzle-orm';

/**
 * A statement's value that Postgres does not read while it plans: `(select $n::type)` is
 * computed once when the statement starts (an InitPlan) and serves an index condition as a
 * plain value does. A statement kept under its shape's name (shapeStatements.ts) is then
 * planned the same for every value, so the plan Postgres made for any value costs what the
 * ones made for the values sent did, and it keeps that plan after five runs instead of
 * planning each run again. Where it could read a value — a list's key, whose statistics say
 * how many records the list has, or a page's limit — the plans made for the values sent
 * looked cheaper than the kept one, and every run was planned: 0.2 ms for each of the two
 * statements of a first-time read on a list of 10,000 records (docs/benchmarks.md, "Plans
 * kept for every value"). Since list_items is partitioned by list (migration 0021) the list's
 * key is left in sight, and those statements go to sessions that keep one plan whatever the
 * values (keptPlans.ts): there the key sets the other partitions aside as a run starts.
 *
 * Never for the owner on Citus: the owner is the distribution column, which Citus must read
 * while planning to send the statement to one shard.
 */
export function unplanned(value: unknown, type: 'bigint' | 'int' | 'text'): SQL {
  return sql`(select ${value}::${sql.raw(type)})`;
}

/** `value` as a parameter, or unplanned where `hide`. */
export function plannedUnless(hide: boolean, value: unknown, type: 'bigint' | 'int' | 'text'): SQL {
  return hide ? unplanned(value, type) : sql`${value}`;
}
