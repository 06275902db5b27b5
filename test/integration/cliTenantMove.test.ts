import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant } from '../helpers/factories.js';
import { TEST_CITUS_URL } from '../helpers/env.js';
import { ensureBuilt, runCli } from '../helpers/processes.js';
import { TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * `tenant move` refused, in one line and exit 1: a malformed --to, a plain Postgres, a node
 * that is not a worker (test/citus/tenantMoveCli.test.ts moves a tenant on a cluster).
 */
const t = testAppForFile();

beforeAll(() => ensureBuilt(), 180_000);

async function move(to: string) {
  const me = await makeTenant(t.db);
  return runCli(['tenant', 'move', '--account', String(me.accountId), '--to', to], {
    DATABASE_URL: t.database.url,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  });
}

describe('tenant move, refused', () => {
  it('names a malformed --to', async () => {
    const res = await move('nowhere');
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('listkeeper: error: --to takes HOST:PORT, not nowhere');
  }, 60_000);

  it('on a plain Postgres says so; on Citus names a node that is not a worker', async () => {
    const res = await move('127.0.0.1:1');
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      TEST_CITUS_URL
        ? 'listkeeper: error: 127.0.0.1:1 is not an active worker of the cluster'
        : 'listkeeper: error: the database is not on Citus',
    );
  }, 60_000);
});
