import type { Database } from './client.js';

/**
 * One value per database handle, built on first use (tests run several apps in one process,
 * each with its own handle). Used for hot fixed queries prepared once per handle (design:
 * named statements are 1.4–1.6× the throughput of unnamed ones, and building a drizzle query
 * per request costs as much CPU as running it) and for per-handle memories.
 */
export function onePerDatabase<T>(build: (db: Database) => T): (db: Database) => T {
  const cache = new WeakMap<Database, T>();
  return (db) => {
    let value = cache.get(db);
    if (value === undefined) cache.set(db, (value = build(db)));
    return value;
  };
}
