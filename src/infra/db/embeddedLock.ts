import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite keeps the database in this process's memory and writes it back to DATA_DIR: two
 * processes on one DATA_DIR do not see each other's writes and lose data (tried: both
 * open without complaint). This lock file makes the second one stop with a clear line.
 */
export class EmbeddedDatabaseBusyError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `the embedded database in ${dataDir} is in use by process ${pid}; ` +
        'it can be opened by one process at a time: stop the server first ' +
        '(or set DATABASE_URL to use Postgres)',
    );
  }
}

/** Takes `DATA_DIR/embedded.lock`; returns its release. A lock left by a dead process is taken over. */
export function lockEmbeddedDatabase(dataDir: string): () => void {
  const file = path.resolve(dataDir, 'embedded.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => release(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(file, 'utf8').trim());
      // A container restarts as the same pid (1): a lock with our own pid is stale.
      if (Number.isSafeInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new EmbeddedDatabaseBusyError(dataDir, holder);
      }
      unlinkSync(file);
    }
  }
  throw new Error(`could not take the lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function release(file: string): void {
  try {
    if (Number(readFileSync(file, 'utf8').trim()) === process.pid) unlinkSync(file);
  } catch {
    // already gone: nothing to release
  }
}
