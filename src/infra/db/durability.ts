import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.js';

/**
 * Postgres settings under which a write we answered 200/201 for can vanish in a crash:
 * no fsync, commits acknowledged before their WAL is flushed, or torn
 * pages after a power loss. `synchronous_commit=local` / `remote_write` are durable on
 * this server, so only `off` is refused.
 */
const UNSAFE_VALUES: Readonly<Record<string, string>> = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
};

/** `name=value` of every unsafe setting among `settings` (name → value as pg_settings shows it). */
export function durabilityProblems(
  settings: Readonly<Record<string, string | undefined>>,
): string[] {
  return Object.entries(UNSAFE_VALUES)
    .filter(([name, unsafe]) => settings[name]?.trim().toLowerCase() === unsafe)
    .map(([name, unsafe]) => `${name}=${unsafe}`);
}

export class DurabilityError extends Error {}

/**
 * Refuses a database whose sessions would not make acknowledged writes durable. Read from
 * pg_settings of our own session, so per-database and per-role overrides count too.
 */
export async function assertDurable(db: Pick<Database, 'execute'>): Promise<void> {
  const rows = await queryRows<{ name: string; setting: string }>(
    db,
    sql`SELECT name, setting FROM pg_settings
        WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes')`,
  );
  const problems = durabilityProblems(Object.fromEntries(rows.map((r) => [r.name, r.setting])));
  if (problems.length > 0) {
    throw new DurabilityError(
      `Postgres runs with ${problems.join(', ')}: acknowledged writes could be lost in a crash, so the service refuses to start (docs/reliability.md)`,
    );
  }
}
