/**
 * The service under test as a real process: `node dist/main.js` (built first), its peak RSS
 * from /proc, and the time from spawn to the first `/readyz` 200.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { ENCRYPTION_KEY } from './dataset.js';
import { peakRssMb } from './procfs.js';

/** Redis database 7 of REDIS_URL's server (default redis://127.0.0.1:6379): the bench's own. */
export const BENCH_REDIS_URL = `${(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '')}/7`;

/** The environment the service runs with under the bench, on the database at `databaseUrl`. */
export function benchServiceEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: BENCH_REDIS_URL,
    ENCRYPTION_KEY,
    // high enough never to refuse, so the limiter runs on every request without capping
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LOG_LEVEL: 'warn',
    // Scenarios a–i repeat one request against a raw replay of its SQL: a remembered answer
    // would replay one query. They measure the path that counts and pages; the sweep
    // (lib/sweepBench.ts) measures the read cache on its own.
    LIST_CACHE_ROWS: '0',
  };
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** ms from spawn to the first /readyz 200 */
  readyMs: number;
  /** VmHWM in MB since the last reset */
  peakRssMb(): number;
  /** starts a new peak-RSS window (Linux: `5` in /proc/<pid>/clear_refs) */
  resetPeak(): void;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** the command after `node`, default dist/main.js */
  args?: string[];
  env: Record<string, string>;
  port: number;
  /** a file that receives the server's log (stdout) and stderr */
  logFile?: string;
}

export async function startServer({ args = ['dist/main.js'], env, port, logFile }: ServerOptions) {
  const started = process.hrtime.bigint();
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', logFile ? 'pipe' : 'ignore', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => appendFileSync(logFile!, chunk));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    if (logFile) appendFileSync(logFile, chunk);
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start: ${stderr}`);
    const ok = await fetch(`${url}/readyz`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    if (Number(process.hrtime.bigint() - started) > 30e9) {
      child.kill('SIGKILL');
      throw new Error(`server not ready after 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
  const pid = child.pid!;
  return {
    url,
    pid,
    readyMs,
    peakRssMb: () => peakRssMb(pid),
    resetPeak() {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        // not permitted: the peak then covers the whole run so far (still an upper bound)
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
      await exited;
      clearTimeout(timer);
    },
  } satisfies ServerProcess;
}

/**
 * Servers a part of the run needs together, started one after another (each start has the
 * machine to itself, so its readiness timeout is about it alone): all of them, or, when one
 * fails to start, none — those already up are stopped before the failure is thrown, so no
 * server is left holding a port a later part of the run needs.
 */
export async function startServers(
  starts: (() => Promise<ServerProcess>)[],
): Promise<ServerProcess[]> {
  const started: ServerProcess[] = [];
  try {
    for (const start of starts) started.push(await start());
    return started;
  } catch (err) {
    await Promise.all(started.map((server) => server.stop()));
    throw err;
  }
}
