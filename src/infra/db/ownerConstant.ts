import { sql, type SQL } from 'drizzle-orm';

/**
 * An owner's id written into an `INSERT … SELECT` as a constant, not bound as a parameter.
 * Citus sends such a statement's SELECT to the owner's shard only when it sees the id while
 * planning; bound, the SELECT was read on every shard, and the transaction, counted as
 * parallel work from then on, was refused its later writes to reference tables (a list's
 * delete updates its project).
 */
export function ownerConstant(ownerId: number): SQL {
  if (!Number.isSafeInteger(ownerId)) throw new TypeError(`not an owner id: ${ownerId}`);
  return sql.raw(`${ownerId}::bigint`);
}
