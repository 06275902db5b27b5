import { createServer } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/freePort.js';
import { ensureBuilt, ROOT, run, runCli, SERVER_ENTRY } from '../helpers/processes.js';

// Configuration at the process level (docs/operations.md "Configuration": "a missing or
// invalid required variable stops start-up with one clear line naming it, before anything
// listens"). loadConfig's rules themselves are unit-tested in test/unit/config.test.ts.

const MIGRATE_ENTRY = path.join(ROOT, 'dist/migrateMain.js');
const MISSING_KEY =
  'listkeeper: missing environment variable ENCRYPTION_KEY: required when DATABASE_URL is set (32 bytes, base64)';

const bad: Record<string, string> = {
  DATABASE_URL: 'mysql://localhost/db',
  REDIS_URL: 'localhost:6379',
  BASE_URL: 'api.example.com',
  RATE_LIMIT_PER_MINUTE: '0',
  ENCRYPTION_KEY: 'c2hvcnQ=',
  ENCRYPTION_OLD_KEYS: 'bm9wZQ==',
  DEPRECATED_METHODS: '{"getMe":"31.01.2030"}',
  LOG_LEVEL: 'loud',
};

// Starting a server or CLI process takes seconds on a loaded machine: a safety net, not a goal.
const PROCESSES = { timeout: 180_000 };

beforeAll(() => ensureBuilt(), 180_000);

describe('`npm start` refuses a bad configuration before listening', PROCESSES, () => {
  it('prints one line per bad variable, naming it, and exits 78 with nothing on stdout', async () => {
    const port = await freePort();
    const res = await run(process.execPath, [SERVER_ENTRY], {
      ...bad,
      HOST: '127.0.0.1',
      PORT: String(port),
    });
    expect(res.code).toBe(78);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(Object.keys(bad).length);
    for (const name of Object.keys(bad)) {
      const prefix = new RegExp(`^listkeeper: invalid environment variable ${name}(\\.\\w+)?: \\S`);
      expect(lines.filter((l) => prefix.test(l))).toHaveLength(1);
    }
    // nothing was left listening: the configured port is still free
    await new Promise<void>((resolve, reject) => {
      const probe = createServer().once('error', reject);
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
    });
  });

  it('a port that is not a number is named too', async () => {
    const res = await run(process.execPath, [SERVER_ENTRY], { PORT: 'eighty' });
    expect(res.code).toBe(78);
    expect(res.stderr).toBe(
      'listkeeper: invalid environment variable PORT: must be a port number (0-65535)\n',
    );
  });

  it('`npm start` and `npm run migrate` with DATABASE_URL but no ENCRYPTION_KEY stop with that one line', async () => {
    for (const entry of [SERVER_ENTRY, MIGRATE_ENTRY]) {
      const res = await run(process.execPath, [entry], {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/listkeeper',
      });
      expect(res.code).toBe(78);
      expect(res.stderr).toBe(`${MISSING_KEY}\n`);
    }
  });

  it('the operator CLI reads the same configuration and says what is wrong in one line', async () => {
    const res = await runCli(['account', 'block', '--id', '1', '--json'], {
      RATE_LIMIT_PER_MINUTE: 'lots',
      LOG_LEVEL: 'loud',
    });
    expect(res.code).toBe(78);
    expect(res.stdout).toBe('');
    expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/RATE_LIMIT_PER_MINUTE: must be a positive integer; .*LOG_LEVEL/);
  });
});
