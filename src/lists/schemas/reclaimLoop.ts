import type { Logger } from 'pino';
import type { Database } from '../../infra/db/client.js';
import { isDatabaseUnavailable } from '../../infra/db/errors.js';
import { resumeStaleErasures } from './fieldErasure.js';
import { reclaimDeletedLists } from './reclaim.js';

export interface ReclaimLoop {
  /** stops the timer, asks a running pass to stop between batches, and waits for it */
  stop(): Promise<void>;
}

/**
 * The background work of list deletion: records of deleted lists (reclaim.ts) and
 * values of deleted fields whose erase was cut short (fieldErasure.ts). Runs once at
 * start, so work left by a previous process resumes, then every `intervalMs`. The
 * timer is unref'd: it never keeps the process alive.
 */
export function startReclaimLoop(
  db: Database,
  log: Pick<Logger, 'info' | 'warn' | 'error'>,
  { intervalMs = 30_000 }: { intervalMs?: number } = {},
): ReclaimLoop {
  const controller = new AbortController();
  let running: Promise<void> | undefined;

  const pass = async () => {
    try {
      const signal = controller.signal;
      const erased = await resumeStaleErasures(db, { signal });
      const reclaimed = await reclaimDeletedLists(db, { signal });
      if (erased > 0 || reclaimed.items > 0 || reclaimed.lists > 0) {
        log.info({ erasedFields: erased, ...reclaimed }, 'reclaimed deleted list data');
      }
    } catch (err) {
      // The next pass retries; nothing is lost (both jobs are idempotent).
      if (isDatabaseUnavailable(err)) log.warn({ err }, 'list reclaim: database unavailable');
      else log.error({ err }, 'list reclaim failed');
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
