import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const KEY = Buffer.alloc(32, 1).toString('base64');
const base = { DATABASE_URL: 'postgres://u@localhost:5432/db', ENCRYPTION_KEY: KEY };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('configuration (operations: every variable, validated at start)', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: undefined,
      dataDir: './data',
      redisUrl: undefined,
      host: '127.0.0.1',
      port: 3000,
      baseUrl: 'http://127.0.0.1:3000',
      rateLimitPerMinute: 120,
      deprecatedMethods: {},
      logLevel: 'info',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '', DEPRECATED_METHODS: '' })).toMatchObject({
      rateLimitPerMinute: 120,
      deprecatedMethods: {},
    });
  });

  it('builds BASE_URL from HOST and PORT, and drops a trailing slash from a given one', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).baseUrl).toBe('http://0.0.0.0:8080');
    expect(loadConfig({ BASE_URL: 'https://api.example.com/' }).baseUrl).toBe(
      'https://api.example.com',
    );
  });

  it('reads RATE_LIMIT_PER_MINUTE as a positive integer', () => {
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '5' }).rateLimitPerMinute).toBe(5);
    for (const bad of ['0', '-1', '1.5', 'lots']) {
      expect(problems({ RATE_LIMIT_PER_MINUTE: bad })).toEqual([
        'invalid environment variable RATE_LIMIT_PER_MINUTE: must be a positive integer',
      ]);
    }
  });

  it('keeps changes 7 days unless CHANGES_RETENTION_DAYS says 1–3650', () => {
    expect(loadConfig({}).changesRetentionDays).toBe(7);
    expect(loadConfig({ CHANGES_RETENTION_DAYS: '30' }).changesRetentionDays).toBe(30);
    for (const bad of ['0', '3651', '1.5', 'week']) {
      expect(problems({ CHANGES_RETENTION_DAYS: bad })).toEqual([
        'invalid environment variable CHANGES_RETENTION_DAYS: must be a whole number of days from 1 to 3650',
      ]);
    }
  });

  it('refuses private webhook addresses and leases webhooks for 30 s unless told otherwise', () => {
    expect(loadConfig({}).webhooks).toEqual({ allowPrivate: false, leaseSeconds: 30 });
    expect(
      loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_LEASE_SECONDS: '11' }).webhooks,
    ).toEqual({ allowPrivate: true, leaseSeconds: 11 });
    expect(problems({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toEqual([
      'invalid environment variable WEBHOOK_ALLOW_PRIVATE: must be true or false',
    ]);
    // a lease must outlast the 10 s a receiver has to answer
    for (const bad of ['10', '3601', 'soon']) {
      expect(problems({ WEBHOOK_LEASE_SECONDS: bad })).toEqual([
        'invalid environment variable WEBHOOK_LEASE_SECONDS: must be a whole number of seconds from 11 to 3600',
      ]);
    }
  });

  it('names statements and migrates through DATABASE_URL unless told otherwise (PgBouncer)', () => {
    const key = { ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') };
    const url = 'postgres://u@pool:6432/lk';
    expect(loadConfig({ DATABASE_URL: url, ...key }).postgres).toEqual({
      migrationUrl: url,
      preparedStatements: true,
      parallelWorkers: 0,
      randomPageCost: 1.1,
      citusDistribution: 'transaction',
      replicaUrls: [],
    });
    const direct = 'postgres://u@db:5432/lk';
    expect(
      loadConfig({
        DATABASE_URL: url,
        DATABASE_MIGRATION_URL: direct,
        PG_PREPARED_STATEMENTS: 'off',
        ...key,
      }).postgres,
    ).toEqual({
      migrationUrl: direct,
      preparedStatements: false,
      parallelWorkers: 0,
      randomPageCost: 1.1,
      citusDistribution: 'transaction',
      replicaUrls: [],
    });
    expect(
      loadConfig({ DATABASE_URL: url, CITUS_DISTRIBUTION: 'online', ...key }).postgres
        .citusDistribution,
    ).toBe('online');
    expect(
      loadConfig({
        DATABASE_URL: direct,
        DATABASE_REPLICA_URLS: ' postgres://u@r1/lk , postgres://u@r2/lk,',
        ...key,
      }).postgres.replicaUrls,
    ).toEqual(['postgres://u@r1/lk', 'postgres://u@r2/lk']);
    expect(problems({ DATABASE_REPLICA_URLS: 'postgres://u@r1/lk,redis://x' })).toEqual([
      'invalid environment variable DATABASE_REPLICA_URLS.1: must be postgres:// URLs',
    ]);
    expect(problems({ PG_PARALLEL_WORKERS: '-1' })).toEqual([
      'invalid environment variable PG_PARALLEL_WORKERS: must be a whole number from 0 to 16',
    ]);
    for (const cost of ['0', 'cheap', '101'])
      expect(problems({ PG_RANDOM_PAGE_COST: cost })).toEqual([
        'invalid environment variable PG_RANDOM_PAGE_COST: must be a number from 0.1 to 100',
      ]);
    expect(problems({ PG_PREPARED_STATEMENTS: 'no' })).toEqual([
      'invalid environment variable PG_PREPARED_STATEMENTS: must be on or off',
    ]);
    expect(problems({ DATABASE_MIGRATION_URL: 'mysql://x' })).toEqual([
      'invalid environment variable DATABASE_MIGRATION_URL: must be a postgres:// URL',
    ]);
  });

  it('requires ENCRYPTION_KEY with DATABASE_URL', () => {
    expect(problems({ DATABASE_URL: base.DATABASE_URL })).toEqual([
      expect.stringMatching(/^missing environment variable ENCRYPTION_KEY/),
    ]);
    expect(loadConfig(base).databaseUrl).toBe(base.DATABASE_URL);
  });

  it('reports every bad variable at once, one line each, naming it', () => {
    const lines = problems({
      DATABASE_URL: 'mysql://x',
      REDIS_URL: 'http://x',
      PORT: '70000',
      BASE_URL: 'ftp://files.example.com',
      LOG_LEVEL: 'loud',
      ENCRYPTION_KEY: 'short',
    });
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'BASE_URL', 'LOG_LEVEL']) {
      expect(lines.filter((l) => l.includes(` ${name}:`))).toHaveLength(1);
    }
    expect(lines.some((l) => l.includes('ENCRYPTION_KEY'))).toBe(true);
  });
});

describe('FAILED_AUTH_PER_MINUTE and TRUST_PROXY (docs/api-conventions.md)', () => {
  it('defaults to 30 failed attempts and to trusting no proxy', () => {
    expect(loadConfig({})).toMatchObject({ failedAuthPerMinute: 30, trustProxy: false });
  });

  it('reads the failed-attempt figure as a positive integer', () => {
    expect(loadConfig({ FAILED_AUTH_PER_MINUTE: '100' }).failedAuthPerMinute).toBe(100);
    expect(problems({ FAILED_AUTH_PER_MINUTE: '0' })).toEqual([
      'invalid environment variable FAILED_AUTH_PER_MINUTE: must be a positive integer',
    ]);
  });

  it.each([
    ['true', true],
    ['false', false],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, loopback, ::1', ['10.0.0.0/8', 'loopback', '::1']],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([['yes'], ['2'], ['proxy.internal']])('rejects TRUST_PROXY=%s', (value) => {
    expect(problems({ TRUST_PROXY: value })).toEqual([
      expect.stringMatching(/^invalid environment variable TRUST_PROXY: /),
    ]);
  });
});

describe('DEPRECATED_METHODS (the versioning rules, operations)', () => {
  it('reads a JSON object of method names to sunset days (UTC midnight)', () => {
    const config = loadConfig({
      DEPRECATED_METHODS: '{"getMe":"2099-01-01","getContacts":"2030-02-28"}',
    });
    expect(config.deprecatedMethods).toEqual({
      getMe: new Date('2099-01-01T00:00:00Z'),
      getContacts: new Date('2030-02-28T00:00:00Z'),
    });
  });

  it('accepts 29 February in a leap year', () => {
    expect(
      loadConfig({ DEPRECATED_METHODS: '{"getMe":"2028-02-29"}' }).deprecatedMethods.getMe,
    ).toEqual(new Date('2028-02-29T00:00:00Z'));
  });

  it.each([
    ['not JSON', '{getMe: 2099-01-01}'],
    ['a JSON array', '["getMe"]'],
    ['JSON null', 'null'],
    ['a JSON string', '"getMe"'],
    ['a number as the date', '{"getMe":20990101}'],
    ['a date with a time', '{"getMe":"2099-01-01T00:00:00Z"}'],
    ['a date in another format', '{"getMe":"01/01/2099"}'],
    ['a month that does not exist', '{"getMe":"2099-13-01"}'],
    ['30 February', '{"getMe":"2099-02-30"}'],
    ['29 February in a common year', '{"getMe":"2027-02-29"}'],
    ['a key that is not a method name', '{"get Me":"2099-01-01"}'],
  ])('rejects %s with one line naming DEPRECATED_METHODS', (_, value) => {
    const lines = problems({ DEPRECATED_METHODS: value });
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) {
      expect(line).toMatch(/^invalid environment variable DEPRECATED_METHODS(\.[\w ]+)?: \S/);
    }
  });

  it('never lets a __proto__ key reach the object (it is dropped)', () => {
    const { deprecatedMethods } = loadConfig({
      DEPRECATED_METHODS: '{"__proto__":"2099-01-01","getMe":"2099-01-01"}',
    });
    expect(Object.keys(deprecatedMethods)).toEqual(['getMe']);
    expect(Object.getPrototypeOf(deprecatedMethods)).toBe(Object.prototype);
  });

  it('names the method whose date is wrong', () => {
    expect(problems({ DEPRECATED_METHODS: '{"getMe":"2099-02-30"}' })).toEqual([
      'invalid environment variable DEPRECATED_METHODS.getMe: not a real date',
    ]);
  });
});
