import { z } from 'zod';

const sunsetDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'dates must be YYYY-MM-DD')
  // Date.parse rolls 2025-02-30 over to March; only a date that reads back unchanged is real.
  .refine((s) => {
    const day = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === s;
  }, 'not a real date');

/** Method names are identifiers (the API conventions); anything else is a typo or worse (`__proto__`). */
const methodName = z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'keys must be method names');

const deprecatedMethods = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(methodName, sunsetDate, {
      error: 'must be a JSON object of method names to YYYY-MM-DD dates',
    }),
  );

const encryptionKey = z
  .string()
  .refine((s) => Buffer.from(s, 'base64').length === 32, 'must be 32 bytes, base64-encoded');

const port = z.coerce
  .number({ error: 'must be a port number (0-65535)' })
  .int('must be a port number (0-65535)')
  .min(0, 'must be a port number (0-65535)')
  .max(65535, 'must be a port number (0-65535)');

/**
 * `true` (believe every hop), `false`, or the proxies to believe: addresses, CIDRs or
 * proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`), separated by commas.
 * Unset: the TCP peer is the client and X-Forwarded-For is ignored (it is easily forged).
 */
const trustProxy = z.string().transform((text, ctx): boolean | string[] => {
  const value = text.trim();
  if (value === 'true' || value === 'false') return value === 'true';
  const proxies = value.split(',').map((a) => a.trim());
  // IPv4 dotted quads or IPv6 (with a colon), optionally as CIDRs; hop counts are not
  // accepted (Fastify ignores them, failing closed).
  const known =
    /^((\d{1,3}\.){3}\d{1,3}(\/\d{1,2})?|[0-9a-fA-F.]*:[0-9a-fA-F.:]*(\/\d{1,3})?|loopback|linklocal|uniquelocal)$/;
  if (proxies.every((a) => known.test(a))) return proxies;
  ctx.addIssue({
    code: 'custom',
    message: 'must be true, false, or proxy addresses/CIDRs separated by commas',
  });
  return z.NEVER;
});

/** `a, b,,c` → `['a', 'b', 'c']` */
const commaList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Every environment variable the service reads (docs: README "Configuration"). */
const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// URL')
    .optional(),
  /** where migrations run, when DATABASE_URL goes through a transaction pooler (PgBouncer) */
  DATABASE_MIGRATION_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// URL')
    .optional(),
  /** streaming replicas the read-only methods may use, comma-separated (docs/scaling.md) */
  DATABASE_REPLICA_URLS: z
    .string()
    .transform(commaList)
    .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'must be postgres:// URLs')))
    .optional(),
  /** off: no named prepared statements, no startup parameters (PgBouncer transaction pooling) */
  PG_PREPARED_STATEMENTS: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  BASE_URL: z
    .string()
    .url('must be an absolute URL')
    .regex(/^https?:\/\//i, 'must be an http:// or https:// URL')
    .optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ error: 'must be a positive integer' })
    .int('must be a positive integer')
    .min(1, 'must be a positive integer')
    .default(120),
  /** unknown keys allowed per client IP per minute before its keyed requests get 429 */
  FAILED_AUTH_PER_MINUTE: z.coerce
    .number({ error: 'must be a positive integer' })
    .int('must be a positive integer')
    .min(1, 'must be a positive integer')
    .default(30),
  /** list items a process keeps of answered getListItems pages (0: none; docs/records.md) */
  LIST_CACHE_ROWS: z.coerce
    .number({ error: 'must be a non-negative integer' })
    .int('must be a non-negative integer')
    .min(0, 'must be a non-negative integer')
    .default(50_000),
  /** days a change stays readable in the change feed (getChanges; docs/changes.md) */
  CHANGES_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a whole number of days from 1 to 3650' })
    .int('must be a whole number of days from 1 to 3650')
    .min(1, 'must be a whole number of days from 1 to 3650')
    .max(3650, 'must be a whole number of days from 1 to 3650')
    .default(7),
  /** which X-Forwarded-For hops to believe for the client IP (Fastify's trustProxy) */
  TRUST_PROXY: trustProxy.optional(),
  ENCRYPTION_KEY: encryptionKey.optional(),
  ENCRYPTION_OLD_KEYS: z.string().transform(commaList).pipe(z.array(encryptionKey)).optional(),
  DEPRECATED_METHODS: deprecatedMethods.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Prometheus metrics at /metrics (docs/developer-experience.md) */
  METRICS: z.enum(['on', 'off']).default('on'),
  /** serve /metrics on this port (same HOST) instead of the API port */
  METRICS_PORT: port.optional(),
  /** deliver webhooks to private, loopback and link-local addresses too (tests, closed networks) */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false'),
  /** how long an instance keeps a webhook it delivers before another may take it over */
  WEBHOOK_LEASE_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds from 11 to 3600' })
    .int('must be a whole number of seconds from 11 to 3600')
    .min(11, 'must be a whole number of seconds from 11 to 3600')
    .max(3600, 'must be a whole number of seconds from 11 to 3600')
    .default(30),
});

export interface Config {
  databaseUrl: string | undefined;
  /** Postgres: where migrations run (DATABASE_URL unless set), and whether statements are named */
  postgres: {
    migrationUrl: string | undefined;
    preparedStatements: boolean;
    /** streaming replicas for the read-only methods (empty: every query on the primary) */
    replicaUrls: string[];
  };
  dataDir: string;
  redisUrl: string | undefined;
  host: string;
  port: number;
  baseUrl: string;
  rateLimitPerMinute: number;
  /** unknown keys per client IP per minute (docs/api-conventions.md) */
  failedAuthPerMinute: number;
  /** rows of getListItems pages remembered per process; 0 turns the read cache off */
  listCacheRows: number;
  /** days changes stay in the feed before the background purge */
  changesRetentionDays: number;
  /** Fastify's trustProxy: decides request.ip behind proxies */
  trustProxy: boolean | string[];
  /** base64 key for encrypted fields; in embedded mode filled in from DATA_DIR at start. */
  encryptionKey: string | undefined;
  /** retired keys still accepted for reading (rotation) */
  encryptionOldKeys: string[];
  /** method name → first day (UTC) on which it answers 410 */
  deprecatedMethods: Record<string, Date>;
  logLevel: string;
  /** /metrics: on or off, and on the API port or a port of its own */
  metrics: { enabled: boolean; port: number | undefined };
  /** webhook delivery: private addresses allowed, and the lease of a delivering instance */
  webhooks: { allowPrivate: boolean; leaseSeconds: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** Parses the environment once; the result is passed down, never re-read. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  // One line per variable (nested paths name the entry too: DEPRECATED_METHODS.getMe), with
  // every reason it failed, so a start-up error reads as a list of what to fix.
  const reasons = new Map<string, string[]>();
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const name = issue.path.map(String).join('.');
    reasons.set(name, [...(reasons.get(name) ?? []), issue.message]);
  }
  const problems = [...reasons].map(
    ([name, messages]) => `invalid environment variable ${name}: ${messages.join('; ')}`,
  );
  // Checked alongside the others, so one start reports every problem at once.
  if (cleaned.DATABASE_URL && !cleaned.ENCRYPTION_KEY) {
    problems.push(
      'missing environment variable ENCRYPTION_KEY: required when DATABASE_URL is set (32 bytes, base64)',
    );
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const deprecated: Record<string, Date> = {};
  for (const [method, day] of Object.entries(e.DEPRECATED_METHODS ?? {})) {
    deprecated[method] = new Date(`${day}T00:00:00Z`);
  }
  return {
    databaseUrl: e.DATABASE_URL,
    postgres: {
      migrationUrl: e.DATABASE_MIGRATION_URL ?? e.DATABASE_URL,
      preparedStatements: e.PG_PREPARED_STATEMENTS === 'on',
      replicaUrls: e.DATABASE_REPLICA_URLS ?? [],
    },
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    host: e.HOST,
    port: e.PORT,
    baseUrl: (e.BASE_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    failedAuthPerMinute: e.FAILED_AUTH_PER_MINUTE,
    listCacheRows: e.LIST_CACHE_ROWS,
    changesRetentionDays: e.CHANGES_RETENTION_DAYS,
    trustProxy: e.TRUST_PROXY ?? false,
    encryptionKey: e.ENCRYPTION_KEY,
    encryptionOldKeys: e.ENCRYPTION_OLD_KEYS ?? [],
    deprecatedMethods: deprecated,
    logLevel: e.LOG_LEVEL,
    metrics: { enabled: e.METRICS === 'on', port: e.METRICS_PORT },
    webhooks: {
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
      leaseSeconds: e.WEBHOOK_LEASE_SECONDS,
    },
  };
}
