import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant } from '../helpers/factories.js';
import { ensureBuilt, runCli } from '../helpers/processes.js';
import { TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { cleanUpMoves, oneShardCopyAtATime, shardsOf, workerPorts } from './shardPlacement.js';

/**
 * `tenant move` (the operator CLI on Citus, run only with TEST_CITUS_URL): the shard group
 * holding an account moves to the worker named, every table's shard with it; a second call
 * moves nothing; an unknown account is refused in one line (the other refusals:
 * test/integration/cliTenantMove.test.ts).
 */
const t = testAppForFile();

beforeAll(() => ensureBuilt(), 180_000);

const env = () => ({ DATABASE_URL: t.database.url, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });

describe('tenant move', () => {
  it("moves the account's shard group to the worker named, once", async () => {
    const me = await makeTenant(t.db);
    const before = await shardsOf(t.db, me.accountId);
    const from = before[0]!.port;
    expect(before.every((s) => s.port === from)).toBe(true);
    const to = workerPorts().find((p) => p !== from)!;

    const args = ['tenant', 'move', '--account', String(me.accountId), '--to', `127.0.0.1:${to}`];
    const moved = await oneShardCopyAtATime(() => runCli([...args, '--json'], env()));
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({
      account: me.accountId,
      from: `127.0.0.1:${from}`,
      to: `127.0.0.1:${to}`,
      moved: true,
    });
    const after = await shardsOf(t.db, me.accountId);
    expect(after.map((s) => s.table).sort()).toEqual(before.map((s) => s.table).sort());
    expect(after.every((s) => s.port === to)).toBe(true);

    const again = await oneShardCopyAtATime(() => runCli([...args, '--json'], env()));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ moved: false });
    await cleanUpMoves(t.database.url);
  }, 180_000);

  it('refuses an unknown account in one line', async () => {
    const unknown = await runCli(
      ['tenant', 'move', '--account', '999999999', '--to', `127.0.0.1:${workerPorts()[0]}`],
      env(),
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('listkeeper: error: account 999999999 does not exist');
  }, 180_000);
});
