import { startPgbouncer } from './pgbouncer.js';
import { ensureTemplate } from './templateDatabase.js';

/**
 * The migrated template every test file clones; with TEST_VIA_PGBOUNCER=1 also a PgBouncer in
 * transaction pooling that the test apps' queries go through (database.ts, `.ci/run`).
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
  process.env.LK_TEST_TEMPLATE = await ensureTemplate();
  if (process.env.TEST_VIA_PGBOUNCER !== '1') return;
  const pgbouncer = await startPgbouncer({ poolSize: 4 });
  process.env.TEST_PGBOUNCER_PORT = String(pgbouncer.port);
  return () => pgbouncer.stop();
}
