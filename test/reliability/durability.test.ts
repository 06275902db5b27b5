import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../src/infra/db/client.js';
import {
  assertDurable,
  DurabilityError,
  durabilityProblems,
} from '../../src/infra/db/durability.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { ensureBuilt, run, SERVER_ENTRY } from '../helpers/processes.js';
import { TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';

/**
 * Acknowledged writes must be durable, so the service refuses a Postgres
 * running with fsync=off, synchronous_commit=off or full_page_writes=off.
 */
describe('which settings are refused (docs/reliability.md "Durability")', () => {
  const safe = { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' };

  it('accepts the defaults and the durable synchronous_commit levels', () => {
    expect(durabilityProblems(safe)).toEqual([]);
    for (const level of ['local', 'remote_write', 'remote_apply', 'ON'])
      expect(durabilityProblems({ ...safe, synchronous_commit: level })).toEqual([]);
  });

  it.each([
    ['fsync', 'fsync=off'],
    ['synchronous_commit', 'synchronous_commit=off'],
    ['full_page_writes', 'full_page_writes=off'],
  ])('refuses %s=off', (name, problem) => {
    expect(durabilityProblems({ ...safe, [name]: 'off' })).toEqual([problem]);
    expect(durabilityProblems({ ...safe, [name]: ' OFF ' })).toEqual([problem]);
  });

  it('names every unsafe setting at once', () => {
    expect(
      durabilityProblems({ fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
    ).toEqual(['fsync=off', 'synchronous_commit=off', 'full_page_writes=off']);
  });
});

describe('the start-up check against a real Postgres', () => {
  let durable: TestDatabase;
  let careless: TestDatabase;

  beforeAll(async () => {
    await ensureBuilt();
    durable = await createTestDatabase();
    careless = await createTestDatabase();
    // A per-database override is enough to lose acknowledged commits: it must count too.
    await careless.handle.db.execute(
      sql.raw(`ALTER DATABASE ${careless.name} SET synchronous_commit = off`),
    );
    await careless.handle.close();
    careless.handle = connectPostgres(careless.url, { error: () => undefined });
  }, 180_000);
  afterAll(async () => {
    await durable?.drop();
    await careless?.drop();
  });

  it('passes on this machine’s Postgres (fsync, synchronous_commit and full_page_writes on)', async () => {
    await expect(assertDurable(durable.handle.db)).resolves.toBeUndefined();
  });

  it('throws for a database whose sessions run with synchronous_commit=off', async () => {
    await expect(assertDurable(careless.handle.db)).rejects.toThrow(DurabilityError);
    await expect(assertDurable(careless.handle.db)).rejects.toThrow(/synchronous_commit=off/);
  });

  it('stops `npm start` with one line naming the setting, before listening', async () => {
    const result = await run(process.execPath, [SERVER_ENTRY], {
      DATABASE_URL: careless.url,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PORT: '0',
      LOG_LEVEL: 'warn',
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^listkeeper: failed to start: .*synchronous_commit=off/m);
    expect(result.stdout).not.toMatch(/listening/i);
  }, 120_000);
});
