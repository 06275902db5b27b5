import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Logger } from 'pino';
import * as schema from './schema/index.js';
import { keepPlansOn } from './keptPlans.js';
import { sendStatement, sessionOf } from './statementText.js';
import { boundShapeStatements, dropStatementNames } from './statementNames.js';
import { endUnansweredQueries } from './unansweredQueries.js';

/** The one query interface the service uses, on Postgres and on embedded PGlite alike. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** Postgres only: the pool, for metrics and for the rare query that needs its own client. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

const INT8_OID = 20;

export interface PostgresOptions {
  max?: number;
  statementTimeoutMs?: number;
  /**
   * false behind a transaction pooler (PgBouncer 1.18): no statement is named, since the next
   * transaction may run on a server connection that never saw it prepared, and no startup
   * parameter is sent (PgBouncer refuses those it does not know; set statement_timeout on
   * the role instead). Nothing else the service does keeps state in a session.
   */
  preparedStatements?: boolean;
  /**
   * max_parallel_workers_per_gather of every session (PG_PARALLEL_WORKERS), a startup
   * parameter; 0 unless given: a service answering many requests at once gains nothing from
   * one statement taking more cores (docs/records.md, "Parallel workers")
   */
  parallelWorkers?: number;
  /**
   * random_page_cost of every session (PG_RANDOM_PAGE_COST), a startup parameter; 1.1 unless
   * given: records and indexes are read from memory or SSD, where a page out of order costs
   * about what one in order does (docs/records.md, "Planner costs")
   */
  randomPageCost?: number;
}

/** What the configuration sets of every session the service opens. */
export type SessionOptions = Pick<
  PostgresOptions,
  'preparedStatements' | 'parallelWorkers' | 'randomPageCost'
>;

/** The session options the configuration gives. */
export function sessionOptionsOf(postgres: SessionOptions): SessionOptions {
  const { preparedStatements, parallelWorkers, randomPageCost } = postgres;
  return { preparedStatements, parallelWorkers, randomPageCost };
}

/** Reaching a server: a dead or unreachable one fails fast and the request gets 503. */
const CONNECT_TIMEOUT_MS = 2000;

/**
 * Waiting for a free connection of a busy pool, longer than connecting. Writes that queue on
 * one row drain one transaction at a time (50 new contacts of one bot take the bot's counters
 * in turn, ~140 ms each on a loaded Citus cluster), and a burst of them held every connection
 * past the 2 s this wait once shared with connecting: the requests behind them got 503s.
 */
const POOL_WAIT_MS = 10_000;

/**
 * pg-pool times both waits with its one `connectionTimeoutMillis` (the pool's); a client's own
 * connect timeout ends the connecting sooner.
 */
class FastConnectClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super({
      ...(typeof config === 'string' ? { connectionString: config } : config),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
  }
}

export function connectPostgres(
  url: string,
  log: Pick<Logger, 'error'>,
  options: PostgresOptions = {},
): DatabaseHandle {
  const named = options.preparedStatements ?? true;
  const pool = postgresPool(url, log, options);
  const db = drizzlePg({ client: pool, schema }) as unknown as Database;
  if (!named) return { db, kind: 'postgres', pool, close: () => pool.end() };
  // the statements sent under their shape's name go to connections of their own, where
  // Postgres keeps one plan for every value (shapeStatements.ts)
  const kept = postgresPool(url, log, options, '-c plan_cache_mode=force_generic_plan');
  keepPlansOn(db, drizzlePg({ client: kept, schema }));
  return {
    db,
    kind: 'postgres',
    pool,
    close: async () => {
      await Promise.all([pool.end(), kept.end()]);
    },
  };
}

/** A pool of connectPostgres; `settings`: more startup parameters of its sessions. */
function postgresPool(
  url: string,
  log: Pick<Logger, 'error'>,
  options: PostgresOptions,
  settings = '',
): pg.Pool {
  const named = options.preparedStatements ?? true;
  const pool = new pg.Pool({
    connectionString: url,
    // More connections than a small machine has cores only queue inside Postgres.
    max: options.max ?? 10,
    // Nothing waits forever: the wait for a connection of a busy pool ends in a 503, and so
    // does reaching a dead server (sooner: FastConnectClient).
    connectionTimeoutMillis: POOL_WAIT_MS,
    Client: FastConnectClient,
    idleTimeoutMillis: 30_000,
    // startup parameters, which a transaction pooler refuses
    ...(named
      ? {
          statement_timeout: options.statementTimeoutMs ?? 15_000,
          options:
            `-c max_parallel_workers_per_gather=${options.parallelWorkers ?? 0} -c random_page_cost=${options.randomPageCost ?? 1.1} ${settings}`.trim(),
        }
      : {}),
    // counts and ids arrive as int8; every value we store fits in a double.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its server must not crash the process.
  pool.on('error', (err) => log.error({ err }, 'postgres pool client error'));
  // Nor may a checked-out one: pg-pool listens only to idle clients, and a client inside a
  // transaction, between two queries, emits 'error' with no listener when Postgres goes
  // away (the crash test stopped the process that way). Its next query fails instead.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    if (named) boundShapeStatements(client);
    else dropStatementNames(client);
  });
  // A query never answered ends its connection (unansweredQueries.ts). Listening after the
  // handler above, which replaces each client's query: the watch counts through it.
  endUnansweredQueries(pool, (options.statementTimeoutMs ?? 15_000) + 2000);
  return pool;
}

export async function openEmbedded(dataDir: string): Promise<DatabaseHandle & { pglite: PGlite }> {
  const dir = path.resolve(dataDir, 'pgdata');
  mkdirSync(dir, { recursive: true });
  // Loaded only in embedded mode: it is a large module, and a server on Postgres never needs
  // it, so it stays out of that server's cold start (docs/benchmarks.md).
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  const pglite = await PGlite.create(dir, {
    parsers: { [INT8_OID]: (v: string) => Number(v) },
  });
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Database;
  return { db, kind: 'pglite', pglite, close: () => pglite.close() };
}

/**
 * Rows of a raw statement on either driver (both return `{ rows }`): through the session
 * with the text built by statementText.ts where `db` is a drizzle database or transaction,
 * else `db.execute`.
 */
export async function queryRows<T>(
  db: Pick<Database, 'execute'>,
  query: Parameters<Database['execute']>[0],
): Promise<T[]> {
  const session = query instanceof SQL ? sessionOf(db) : undefined;
  if (session) return sendStatement<T>(session, query as SQL);
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
