import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './freePort.js';
import { TEST_POSTGRES_URL } from './env.js';

const PGBOUNCER = '/usr/sbin/pgbouncer';

/** A throwaway PgBouncer (Debian's 1.18) in transaction pooling in front of the test Postgres. */
export interface Pgbouncer {
  port: number;
  /** the URL of database `name` through the pooler */
  url(name: string): string;
  stop(): Promise<void>;
}

/** Also the bench's (bench/scenarios/pgbouncer.ts): `target` is the Postgres server it pools for. */
export async function startPgbouncer({
  poolSize = 4,
  target: targetUrl = TEST_POSTGRES_URL,
} = {}): Promise<Pgbouncer> {
  if (!existsSync(PGBOUNCER)) {
    throw new Error(`${PGBOUNCER} is missing: apt-get install -y pgbouncer`);
  }
  const target = new URL(targetUrl);
  const port = await freePort();
  // pgbouncer will not run as root; as `postgres` it must read its files from here
  const dir = mkdtempSync(path.join(tmpdir(), 'lk-pgbouncer-'));
  chmodSync(dir, 0o777);
  writeFileSync(path.join(dir, 'users.txt'), `"${target.username || 'postgres'}" ""\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 2000',
      'server_reset_query =',
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(
    PGBOUNCER,
    [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')],
    { stdio: 'ignore' },
  );
  const url = (name: string) => {
    const u = new URL(targetUrl);
    u.port = String(port);
    u.pathname = `/${name}`;
    return u.toString();
  };
  await waitUntilUp(url('postgres'));
  return {
    port,
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitUntilUp(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (attempt > 50)
        throw new Error(`pgbouncer did not come up: ${String(err)}`, { cause: err });
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
