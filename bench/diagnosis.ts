/**
 * What the diagnosis tools (cpu-per-request.ts, ab.ts) share: their command line, and the
 * `lk_bench` data set's API key and server environment (the data set `npm run bench` built).
 */
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { connectPostgres, queryRows } from '../src/infra/db/client.js';
import { BENCH_SERVER, databaseUrl } from './database.js';
import { benchServiceEnv } from './server.js';

export function diagnosisArgs(usage: string) {
  const args = process.argv.slice(2);
  const flag = (name: string) => args.includes(`--${name}`);
  const option = (name: string, fallback: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1]! : fallback;
  };
  const path = args.find((a) => a.startsWith('/'));
  if (!path) throw new Error(`usage: ${usage}`);
  return { path, flag, option };
}

/** The bench data set's API key, and the environment a server under diagnosis runs with. */
export async function benchServerEnv(): Promise<{ apiKey: string; env: Record<string, string> }> {
  const dbUrl = databaseUrl(BENCH_SERVER, 'lk_bench');
  const handle = connectPostgres(dbUrl, pino({ level: 'silent' }));
  try {
    const [meta] = await queryRows<{ key: string; accountId: string }>(
      handle.db,
      sql`select dataset->>'apiKey' as key, dataset->>'accountId' as "accountId" from bench_meta limit 1`,
    );
    if (!meta) throw new Error('no bench data set in lk_bench: run `npm run bench` first');
    return {
      apiKey: meta.key,
      env: {
        ...benchServiceEnv(dbUrl),
        // the account the `--auth off` variant answers as (bench/variantServer.ts)
        BENCH_ACCOUNT_ID: meta.accountId,
      },
    };
  } finally {
    await handle.close();
  }
}
