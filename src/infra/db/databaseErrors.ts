/** SQLSTATE and driver errors, translated once at the database edge. */

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '57014', // query_canceled (statement timeout)
  // Contention, not a defect: the same request succeeds once the other transaction is done,
  // so the client is told to retry (503 + Retry-After) instead of getting a 500.
  '55P03', // lock_not_available (lock_timeout)
  '40P01', // deadlock_detected
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  // Citus: a statement whose intermediate result a failed part of its distributed
  // transaction removed (seen at a shard move's switch-over); the transaction rolled back
  'CIINF',
]);

const UNAVAILABLE_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  // node-postgres: a client's own connect timeout (client.ts, FastConnectClient)
  /^timeout expired$/,
  /Connection terminated/i,
  /connection is closed/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
  /Query read timeout/i,
  // the same Citus failure when it reaches the coordinator under another SQLSTATE
  /could not find the intermediate result file/i,
  // Citus: a statement planned against a shard whose placement was being switched (seen once
  // while `changes` was placed online); the transaction rolled back
  /could not find valid entry for shard \d+/i,
  // Citus: a statement planned while a table's metadata was being swapped (the retention purge
  // met it four times while `changes` was placed online); nothing was written
  /^relation "?[\w.]+"? is not distributed$/i,
];

/** True when the error means Postgres cannot be reached right now (answer 503, not 500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (isMovedShard(err) || violatesUnique(err, FEED_KEY)) return true;
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message)))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * On Citus, a statement planned before its shard moved to another worker, reaching the old
 * placement after Citus dropped it: `relation "public.bots_102014" does not exist`. No table
 * of ours ends in `_<digits>`, so such a name is a shard; the same request, sent again, goes
 * to the new placement.
 */
function isMovedShard(err: unknown): boolean {
  return sqlState(err) === UNDEFINED_TABLE && SHARD_MISSING.test(messageOf(err));
}

const UNDEFINED_TABLE = '42P01';

/**
 * The change feed's key (account, seq). No request chooses a `seq`, so a duplicate is never
 * the caller's: on Citus it was seen only while `changes` itself was being placed online
 * (docs/scaling.md, "Distributing a database that serves"). The write is rolled back whole,
 * and the same request sent again succeeds.
 */
const FEED_KEY = 'changes_account_id_seq_pk';
const SHARD_MISSING = /relation "[\w.]+_\d+" does not exist/;

/** The SQLSTATE of a Postgres error, looking through drizzle's wrapping. */
export function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';

/** Whether `err` is a unique violation of the named constraint (through drizzle's wrapping). */
export function violatesUnique(err: unknown, constraint: string): boolean {
  const state = sqlState(err);
  // Citus sometimes passes a worker's unique violation on as XX000, its message intact
  if (state !== UNIQUE_VIOLATION && !(state === 'XX000' && DUPLICATE_KEY.test(messageOf(err))))
    return false;
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    // Citus passes a worker's error on without its constraint field: the message names it
    const named =
      (e as { constraint?: unknown }).constraint ??
      DUPLICATE_KEY.exec(String((e as { message?: unknown }).message))?.[1];
    // on Citus the error comes from a shard, whose constraint carries the shard's id
    if (typeof named === 'string' && (named === constraint || isShardOf(named, constraint)))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const DUPLICATE_KEY = /duplicate key value violates unique constraint "([^"]+)"/;

/** The messages of `err` and its causes (drizzle wraps the driver's error), joined. */
function messageOf(err: unknown): string {
  const messages: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    messages.push(String((e as { message?: unknown }).message));
    e = (e as { cause?: unknown }).cause;
  }
  return messages.join('\n');
}

/** `name` is `constraint` of a Citus shard: the same name with `_<shard id>` appended. */
function isShardOf(name: string, constraint: string): boolean {
  return name.startsWith(`${constraint}_`) && /^\d+$/.test(name.slice(constraint.length + 1));
}
