import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './freePort.js';
import { waitFor } from './waitFor.js';

/**
 * A throwaway Postgres cluster for the fault and replica tests: the shared Postgres on 5432
 * serves every test file, so outages and crashes happen to a cluster of our own (initdb
 * into a temp directory, its own port), as they happen to redis-server in redisServer.ts.
 */
const PG_BIN = process.env.PG_BIN ?? newestPostgresBin();

/** Debian keeps each major version in /usr/lib/postgresql/<n>/bin: take the newest. */
function newestPostgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return path.join(root, versions[0] ?? '15', 'bin');
}

export interface PostgresCluster {
  port: number;
  /** a connection string for `database` on this cluster */
  url(database?: string): string;
  createDatabase(name: string): Promise<string>;
  start(): Promise<void>;
  /** `fast`: a clean shutdown; `immediate`: a crash (no checkpoint, WAL replay on start) */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** stops the cluster and removes its directory */
  destroy(): Promise<void>;
}

/** initdb refuses root, so as root the cluster belongs to the `postgres` user. */
function owner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
  return Number.isInteger(uid) && uid > 0 ? { uid, gid } : undefined;
}

function runAs(
  user: { uid: number; gid: number } | undefined,
  command: string,
  args: string[],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(user ?? {}), env: { PATH: process.env.PATH } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A fresh Postgres cluster on a free port, started; durable settings (the defaults). */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const user = owner();
  const dir = mkdtempSync(path.join(tmpdir(), 'lk-pg-'));
  const data = path.join(dir, 'data');
  if (user) chownSync(dir, user.uid, user.gid);
  const init = await runAs(user, `${PG_BIN}/initdb`, [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
  ]);
  if (init.code !== 0) throw new Error(`initdb failed:\n${init.output}`);
  const cluster = clusterIn(dir, await freePort(), user);
  await cluster.start();
  return cluster;
}

/**
 * A streaming replica of `primary`: pg_basebackup of it (`-R`: standby.signal and
 * primary_conninfo written), started on a port of its own. initdb's trust rules already
 * let 127.0.0.1 connect for replication.
 */
export async function startReplica(primary: PostgresCluster): Promise<PostgresCluster> {
  const user = owner();
  const dir = mkdtempSync(path.join(tmpdir(), 'lk-pg-replica-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const backup = await runAs(user, `${PG_BIN}/pg_basebackup`, [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    path.join(dir, 'data'),
    '-R',
    '-X',
    'stream',
    // an immediate checkpoint: the default waits for the next spread one (minutes)
    '--checkpoint=fast',
    '--no-sync',
  ]);
  if (backup.code !== 0) throw new Error(`pg_basebackup failed:\n${backup.output}`);
  const replica = clusterIn(dir, await freePort(), user);
  await replica.start();
  return replica;
}

/** The cluster whose data directory is `dir`/data, served on `port`. */
function clusterIn(
  dir: string,
  port: number,
  user: { uid: number; gid: number } | undefined,
): PostgresCluster {
  const data = path.join(dir, 'data');
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c max_connections=60',
    '-c shared_buffers=32MB',
  ].join(' ');

  const cluster: PostgresCluster = {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: cluster.url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return cluster.url(name);
    },
    async start() {
      const r = await runAs(user, `${PG_BIN}/pg_ctl`, [
        '-D',
        data,
        '-o',
        options,
        '-l',
        path.join(dir, 'log'),
        '-w',
        'start',
      ]);
      if (r.code !== 0) throw new Error(`pg_ctl start failed:\n${r.output}`);
      await waitFor(
        async () => {
          const client = new pg.Client({ connectionString: cluster.url() });
          try {
            await client.connect();
            await client.end();
            return true;
          } catch {
            return false;
          }
        },
        `the Postgres cluster on port ${port}`,
        30_000,
      );
    },
    async stop(mode = 'fast') {
      const r = await runAs(user, `${PG_BIN}/pg_ctl`, ['-D', data, '-m', mode, '-w', 'stop']);
      if (r.code !== 0 && !/not running|No such/i.test(r.output))
        throw new Error(`pg_ctl stop failed:\n${r.output}`);
    },
    async destroy() {
      await cluster.stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}
