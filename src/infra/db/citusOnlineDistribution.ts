import { placementStatements, type ForeignKey } from './distribution.js';
import { CITUS_CHANGES_TO_LOCAL_KEEPING_SEQ } from './citusChangeFeed.js';
import {
  CITUS_CONTACT_STATS_SQL,
  DROP_POSTGRES_CONTACT_STATS_TRIGGERS,
} from './citusContactStats.js';

/**
 * The placement of citusDistribution.ts for a database that keeps serving while it runs
 * (`CITUS_DISTRIBUTION=online`, docs/scaling.md). The one-transaction placement copies every
 * row to the workers while it holds each table, so writes wait for the whole copy. Here each
 * statement commits on its own: the distributed tables are placed with
 * `create_distributed_table_concurrently`, which copies the rows by logical replication while
 * writes go on and blocks them only for its final switch (it needs `wal_level = logical` and a
 * primary key, and refuses to run inside a transaction). The reference tables are small and
 * are placed as before; the foreign keys come back `NOT VALID` and are then validated, a scan
 * that blocks no writer. The contact stats trigger swap runs in a transaction of its own, so
 * no contact write falls between the old stats triggers and the new one; it comes before the
 * copies, which fire no trigger (rows arrive by replication), and so covers every write made
 * meanwhile.
 * `changes` is made a Citus local table in a step of its own just before it is placed, so its
 * sequence goes on from where it stood (citusChangeFeed.ts).
 *
 * A table placed stays placed, and a later run places the rest. The foreign keys are written
 * down before they are dropped (citusDistribution.ts): a run that fails puts them back itself,
 * and the next start after one that is killed puts back those still missing.
 */
export function citusOnlineSteps(
  fks: ForeignKey[],
  placed: Set<string>,
  /** keys an earlier, killed run dropped (citusDistribution.ts wrote them down): added back too */
  missing: ForeignKey[] = [],
): string[] {
  const steps = ['SET citus.enable_unsafe_triggers = on'];
  for (const fk of fks) steps.push(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT "${fk.conname}"`);
  if (!placed.has('contacts'))
    steps.push(
      'BEGIN',
      ...DROP_POSTGRES_CONTACT_STATS_TRIGGERS,
      ...CITUS_CONTACT_STATS_SQL,
      'COMMIT',
    );
  steps.push(
    ...placementStatements(placed, 'create_distributed_table_concurrently', {
      // its first step would restart the feed's sequence at 1 (citusChangeFeed.ts): done here
      changes: [CITUS_CHANGES_TO_LOCAL_KEEPING_SEQ],
    }),
  );
  steps.push(...restoreForeignKeys([...fks, ...missing]));
  steps.push('RESET citus.enable_unsafe_triggers');
  return steps;
}

/** The foreign keys added back without a scan under lock, then validated (writers go on). */
export function restoreForeignKeys(fks: ForeignKey[]): string[] {
  return [
    ...fks.map(
      (fk) =>
        `ALTER TABLE ${fk.tbl} ADD CONSTRAINT "${fk.conname}" ${fk.def.replace(/ NOT VALID$/, '')} NOT VALID`,
    ),
    ...fks.map((fk) => `ALTER TABLE ${fk.tbl} VALIDATE CONSTRAINT "${fk.conname}"`),
  ];
}
