import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openMigratedDatabase } from '../../src/infra/db/open.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';

/**
 * Every session the service opens carries PG_PARALLEL_WORKERS as
 * max_parallel_workers_per_gather (0 unless set): one statement takes one core; and
 * PG_RANDOM_PAGE_COST as random_page_cost (1.1 unless set).
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function workersOfASession(env: Record<string, string>): Promise<string> {
  return settingOfASession(env, 'max_parallel_workers_per_gather');
}

async function settingOfASession(env: Record<string, string>, setting: string): Promise<string> {
  const config = loadConfig({
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...env,
  });
  const handle = await openMigratedDatabase(config, pino({ level: 'silent' }));
  try {
    const { rows } = await handle.pool!.query<{ w: string }>('select current_setting($1) as w', [
      setting,
    ]);
    return rows[0]!.w;
  } finally {
    await handle.close();
  }
}

describe('PG_PARALLEL_WORKERS', () => {
  it('is 0 in every session unless set, and what it is set to otherwise', async () => {
    expect(await workersOfASession({})).toBe('0');
    expect(await workersOfASession({ PG_PARALLEL_WORKERS: '3' })).toBe('3');
  });

  it('sends nothing at connect behind PgBouncer (PG_PREPARED_STATEMENTS=off)', async () => {
    const plain = new pg.Client({ connectionString: database.url });
    await plain.connect();
    const server = await plain
      .query<{ w: string }>(`select current_setting('max_parallel_workers_per_gather') as w`)
      .finally(() => plain.end());
    expect(await workersOfASession({ PG_PREPARED_STATEMENTS: 'off' })).toBe(server.rows[0]!.w);
  });
});

describe('PG_RANDOM_PAGE_COST', () => {
  it('is 1.1 in every session unless set, and what it is set to otherwise', async () => {
    expect(await settingOfASession({}, 'random_page_cost')).toBe('1.1');
    expect(await settingOfASession({ PG_RANDOM_PAGE_COST: '2.5' }, 'random_page_cost')).toBe('2.5');
  });
});
