import type { SQL } from 'drizzle-orm';
import { queryRows, type Database } from './client.js';
import { onCitus } from './engine.js';
import { keptPlansOf } from './keptPlans.js';
import { shapeName } from './statementNames.js';
import { sendStatement, sessionOf } from './statementText.js';

/**
 * Statements sent under a name made from their text, so that each connection parses and
 * plans one shape once and Postgres may keep its plan for the next values (after five runs,
 * where the plan it would make for any value costs no more than the ones it made). Only for
 * statements whose plan is the same whatever their values (items/pinnedPlans.ts): a kept
 * plan made for other values is the one risk of a named statement, and where the values
 * decide the plan (two conditions, a walk of the sort's index) Postgres kept plans that were
 * right for the first values and slow for later ones (docs/benchmarks.md, "Tried: statements
 * prepared by shape"); a walk goes under a name only written so that no value decides it
 * (filters/compile.ts, compileWalkWhere). Unnamed behind a transaction pooler
 * (PG_PREPARED_STATEMENTS=off, the pool strips the name) and on Citus, where it is not
 * measured. A connection keeps at most MAX_SHAPE_STATEMENTS of them (statementNames.ts).
 */
export async function queryShapeRows<T>(db: Database, query: SQL): Promise<T[]> {
  if (await onCitus(db)) return queryRows<T>(db, query);
  const session = sessionOf(keptPlansOf(db) ?? db);
  if (!session) return queryRows<T>(db, query);
  return sendStatement<T>(session, query, shapeName);
}

/** A statement's rows, sent under its shape's name where `named` (queryShapeRows). */
export function queryRowsNamedIf<T>(named: boolean, db: Database, query: SQL): Promise<T[]> {
  return named ? queryShapeRows<T>(db, query) : queryRows<T>(db, query);
}
