import type { Logger } from 'pino';
import { purgeOldChanges } from './changes/changePurge.js';
import { purgeExpiredKeys } from './idempotency/storedAnswerPurge.js';
import type { Database } from './infra/db/client.js';
import { analyzeGrownTables } from './infra/db/embeddedStatistics.js';
import { isDatabaseUnavailable } from './infra/db/databaseErrors.js';
import { resumeStaleErasures } from './lists/schemas/fieldErasure.js';
import { reclaimDeletedLists } from './lists/schemas/reclaim.js';

export interface MaintenanceLoop {
  /** stops the timer, asks a running pass to stop between batches, and waits for it */
  stop(): Promise<void>;
}

/**
 * The background work: records of deleted lists (lists/schemas/reclaim.ts), values of
 * deleted fields whose erase was cut short (fieldErasure.ts), expired idempotency keys
 * (idempotency/storedAnswerPurge.ts), changes past the feed's retention (changes/changePurge.ts) and, on embedded
 * PGlite, the statistics of grown tables (infra/db/embeddedStatistics.ts). Runs once at
 * start, so work left by a previous process resumes, then every `intervalMs`. The
 * timer is unref'd: it never keeps the process alive.
 */
export function startMaintenanceLoop(
  db: Database,
  log: Pick<Logger, 'info' | 'warn' | 'error'>,
  {
    intervalMs = 30_000,
    changesRetentionDays = 7,
    analyzeGrown = false,
  }: {
    intervalMs?: number;
    changesRetentionDays?: number;
    /** embedded PGlite, which has no autovacuum to keep the planner's statistics */
    analyzeGrown?: boolean;
  } = {},
): MaintenanceLoop {
  const controller = new AbortController();
  let running: Promise<void> | undefined;

  const pass = async () => {
    try {
      const signal = controller.signal;
      const erased = await resumeStaleErasures(db, { signal });
      const reclaimed = await reclaimDeletedLists(db, { signal });
      const purgedKeys = await purgeExpiredKeys(db, signal);
      const purgedChanges = await purgeOldChanges(db, changesRetentionDays, signal);
      const analyzed = analyzeGrown ? await analyzeGrownTables(db) : [];
      const work = erased + reclaimed.items + reclaimed.lists + purgedKeys + purgedChanges;
      if (work > 0 || analyzed.length > 0) {
        log.info(
          { erasedFields: erased, ...reclaimed, purgedKeys, purgedChanges, analyzed },
          'background clean-up',
        );
      }
    } catch (err) {
      // The next pass retries; nothing is lost (every job is idempotent).
      if (isDatabaseUnavailable(err)) log.warn({ err }, 'clean-up: database unavailable');
      else log.error({ err }, 'clean-up failed');
    }
  };
  const run = () => {
    if (running || controller.signal.aborted) return;
    running = pass().finally(() => {
      running = undefined;
    });
  };

  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      controller.abort();
      await running;
    },
  };
}
