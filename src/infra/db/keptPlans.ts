/**
 * The connections a database's named statements go to (client.ts, shapeStatements.ts):
 * sessions with `plan_cache_mode = force_generic_plan`, where Postgres plans each shape once
 * for any value and keeps that plan. In its own choice (`auto`) Postgres planned every run
 * again wherever the plans made for the values sent looked cheaper than the one for any value
 * — as on list_items partitioned by list, where the list's key lets a plan name its one
 * partition and the kept plan leaves that to each run's start (docs/records.md, "One list's
 * records in one partition"). Not for the service's other statements: there the values decide
 * the plan. Kept apart from both modules so neither imports the other.
 */
const kept = new WeakMap<object, object>();

export function keepPlansOn(db: object, keptDb: object): void {
  kept.set(db, keptDb);
}

/** The database whose sessions keep one plan per shape, where `db` has one. */
export function keptPlansOf(db: object): object | undefined {
  return kept.get(db);
}
