import type { z } from 'zod';
import {
  citusDistributionMode,
  decimal,
  deprecatedMethods,
  encryptionKey,
  encryptionKeyList,
  httpUrl,
  logLevel,
  onOff,
  port,
  postgresUrl,
  postgresUrlList,
  redisUrl,
  text,
  trueFalse,
  trustProxy,
  wholeNumber,
} from './configValues.js';

/**
 * One environment variable: its name, how its text is read, and how the README's
 * Configuration table shows it.
 */
export interface ConfigVariable<S extends z.ZodType = z.ZodType> {
  name: string;
  /** reads the text; receives undefined when the variable is unset and has no `default` */
  schema: S;
  /** the text used when the variable is unset, read by `schema` like a value that was set */
  default?: string;
  /** the README's default column when there is no `default` (Markdown; `unset` if omitted) */
  unset?: string;
  /** the README's meaning column (Markdown) */
  meaning: string;
}

function variable<S extends z.ZodType>(v: ConfigVariable<S>): ConfigVariable<S> {
  return v;
}

/**
 * Every environment variable the service reads, in the shape of the configuration the code
 * receives (`Config` in src/config.ts: a key per variable, grouped where a part of the
 * service reads several). The validation, the `Config` type and the README's table
 * (`npm run docs:config`) all come from here: a new variable is one entry.
 */
export const configVariables = {
  databaseUrl: variable({
    name: 'DATABASE_URL',
    schema: postgresUrl.optional(),
    meaning:
      'Postgres connection string (`postgres://user:pass@host:5432/db`). Unset: embedded Postgres (PGlite) under `DATA_DIR`',
  }),
  postgres: {
    migrationUrl: variable({
      name: 'DATABASE_MIGRATION_URL',
      schema: postgresUrl.optional(),
      unset: '`DATABASE_URL`',
      meaning:
        "where migrations run. Behind PgBouncer's transaction pooling point it at Postgres itself: migrations hold a session lock (docs/scaling.md)",
    }),
    preparedStatements: variable({
      name: 'PG_PREPARED_STATEMENTS',
      schema: onOff,
      default: 'on',
      meaning:
        "`off` behind PgBouncer in transaction pooling: no named prepared statements and no startup parameters (set `statement_timeout` on the role instead); measured within 3 % of `on` (docs/scaling.md). With `on`, an instance opens up to 20 Postgres connections: 10 for most statements and 10 for those kept under their shape's name (docs/records.md)",
    }),
    parallelWorkers: variable({
      name: 'PG_PARALLEL_WORKERS',
      schema: wholeNumber('must be a whole number from 0 to 16', 0, 16),
      default: '0',
      meaning:
        'Postgres workers one statement may add (`max_parallel_workers_per_gather`, sent when connecting; behind PgBouncer set it on the role). `0`: none. Under concurrent requests a parallel plan costs more CPU in all, and Postgres chose parallel scans of the whole shared records table for counts an index answers (docs/records.md)',
    }),
    randomPageCost: variable({
      name: 'PG_RANDOM_PAGE_COST',
      schema: decimal('must be a number from 0.1 to 100', 0.1, 100),
      default: '1.1',
      meaning:
        "Postgres's price of a page read out of order (`random_page_cost`, sent when connecting; behind PgBouncer set it on the role), against 1 for one read in order. Postgres's own default, 4, is a spinning disk's: with it, counts over half a list were planned as sequential scans of the whole table where the list's index entries take half the time (docs/records.md)",
    }),
    citusDistribution: variable({
      name: 'CITUS_DISTRIBUTION',
      schema: citusDistributionMode,
      default: 'transaction',
      meaning:
        'on a database with the `citus` extension whose tables are not placed yet: `transaction` places them in one transaction (writes wait for the copy), `online` copies the big tables while writes go on — for a database that serves traffic (docs/scaling.md)',
    }),
    replicaUrls: variable({
      name: 'DATABASE_REPLICA_URLS',
      schema: postgresUrlList,
      meaning:
        "streaming replicas, comma-separated: read-only methods read from one that has replayed the caller's last write, else from the primary; a replica that is down, paused or behind is skipped (docs/scaling.md)",
    }),
  },
  dataDir: variable({
    name: 'DATA_DIR',
    schema: text,
    default: './data',
    meaning:
      'where the embedded database, its generated encryption key (`encryption.key`) and `demo-account.json` live',
  }),
  redisUrl: variable({
    name: 'REDIS_URL',
    schema: redisUrl.optional(),
    meaning:
      'Redis (`redis://` or `rediss://`) for rate limits and cross-instance key invalidation. Unset: in-process equivalents (one instance only)',
  }),
  host: variable({
    name: 'HOST',
    schema: text,
    default: '127.0.0.1',
    meaning: 'listen address; the container image sets `HOST=0.0.0.0`',
  }),
  port: variable({
    name: 'PORT',
    schema: port,
    default: '3000',
    meaning: 'listen port',
  }),
  baseUrl: variable({
    name: 'BASE_URL',
    schema: httpUrl.optional(),
    unset: '`http://HOST:PORT`',
    meaning:
      'public `http(s)://` address used in paging links and validation redirects; set it behind a proxy',
  }),
  rateLimitPerMinute: variable({
    name: 'RATE_LIMIT_PER_MINUTE',
    schema: wholeNumber('must be a positive integer', 1),
    default: '120',
    meaning: 'requests per minute per account, all methods combined (a fixed one-minute window)',
  }),
  listCacheRows: variable({
    name: 'LIST_CACHE_ROWS',
    schema: wholeNumber('must be a non-negative integer', 0),
    default: '50000',
    meaning:
      'list items each process keeps of answered `getListItems` pages, remembered per list version so answers stay exact (docs/records.md); `0` turns it off',
  }),
  changesRetentionDays: variable({
    name: 'CHANGES_RETENTION_DAYS',
    schema: wholeNumber('must be a whole number of days from 1 to 3650', 1, 3650),
    default: '7',
    meaning:
      'days a change stays readable through `getChanges` (1–3650); older ones are purged in the background and a cursor from before them answers `410 cursor_expired` (docs/changes.md)',
  }),
  webhooks: {
    allowPrivate: variable({
      name: 'WEBHOOK_ALLOW_PRIVATE',
      schema: trueFalse,
      default: 'false',
      meaning:
        '`true` lets webhooks reach loopback, private and link-local addresses (tests, closed networks); otherwise such URLs are refused at creation and at delivery (docs/webhooks.md)',
    }),
    leaseSeconds: variable({
      name: 'WEBHOOK_LEASE_SECONDS',
      // a lease must outlast the 10 s a receiver has to answer
      schema: wholeNumber('must be a whole number of seconds from 11 to 3600', 11, 3600),
      default: '30',
      meaning:
        'how long an instance holds a webhook it delivers (11–3600); after a crash another instance takes it over once this runs out',
    }),
  },
  encryptionKey: variable({
    name: 'ENCRYPTION_KEY',
    schema: encryptionKey.optional(),
    meaning:
      '32-byte key, base64, sealing `is_encryptable` values (AES-256-GCM). Required with `DATABASE_URL`; in embedded mode generated once into `DATA_DIR/encryption.key`. Losing it loses the encrypted values',
  }),
  encryptionOldKeys: variable({
    name: 'ENCRYPTION_OLD_KEYS',
    schema: encryptionKeyList,
    meaning:
      'comma-separated retired keys (base64), still accepted for reading: to rotate, put the current key here and a new one in `ENCRYPTION_KEY`. New writes use the new key',
  }),
  deprecatedMethods: variable({
    name: 'DEPRECATED_METHODS',
    schema: deprecatedMethods,
    meaning:
      'JSON object, method name → sunset date `YYYY-MM-DD` (UTC), e.g. `{"getListSchemas":"2027-06-30"}`: before that day the method answers with `Deprecation: true` and `Sunset: <HTTP-date>`; from that day `410` with code `method_removed`',
  }),
  logLevel: variable({
    name: 'LOG_LEVEL',
    schema: logLevel,
    default: 'info',
    meaning: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`',
  }),
  failedAuthPerMinute: variable({
    name: 'FAILED_AUTH_PER_MINUTE',
    schema: wholeNumber('must be a positive integer', 1),
    default: '30',
    meaning:
      'unknown API keys accepted per client IP per minute; past it every keyed request from that IP gets `429` until the minute ends, so keys cannot be guessed at speed',
  }),
  trustProxy: variable({
    name: 'TRUST_PROXY',
    schema: trustProxy,
    default: 'false',
    meaning:
      'set behind a load balancer so the client IP (for `FAILED_AUTH_PER_MINUTE`) comes from `X-Forwarded-For`; see docs/api-conventions.md',
  }),
  metrics: {
    enabled: variable({
      name: 'METRICS',
      schema: onOff,
      default: 'on',
      meaning: 'Prometheus metrics at `/metrics`: `on` or `off`',
    }),
    port: variable({
      name: 'METRICS_PORT',
      schema: port.optional(),
      meaning: 'serve `/metrics` on this port (same `HOST`) instead of the API port',
    }),
  },
} as const;

/** A group of variables, or the whole table. */
export interface ConfigGroup {
  readonly [key: string]: ConfigVariable | ConfigGroup;
}

/** The values the table's variables are read into, in the table's shape. */
export type ConfigValues<T = typeof configVariables> = {
  -readonly [K in keyof T]: T[K] extends ConfigVariable<infer S> ? z.output<S> : ConfigValues<T[K]>;
};

/** Every variable of the table, in its order. */
export function variablesOf(group: ConfigGroup = configVariables): ConfigVariable[] {
  return Object.values(group).flatMap((entry) =>
    isVariable(entry) ? [entry] : variablesOf(entry),
  );
}

export function isVariable(entry: ConfigVariable | ConfigGroup): entry is ConfigVariable {
  return typeof entry.name === 'string' && 'schema' in entry;
}
