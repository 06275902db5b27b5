/**
 * What the diagnosis tools (bench/diagnosis/) share: the API path they measure, and the
 * `lk_bench` data set's API key and server environment (the data set `npm run bench` built).
 */
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { connectPostgres, queryRows } from '../../src/infra/db/client.js';
import { BENCH_SERVER, databaseUrl } from './database.js';
import { benchServiceEnv } from './serverProcess.js';

/** The one positional argument: an API path with its query, e.g. `/api/v1/getMe`. */
export function apiPath(positionals: string[]): string {
  const [path, ...rest] = positionals;
  if (!path?.startsWith('/') || rest.length > 0) {
    throw new Error('give one API path with its query, e.g. /api/v1/getListSchema?schema_id=…');
  }
  return path;
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
        // the account the `--auth off` variant answers as (bench/servers/variantServer.ts)
        BENCH_ACCOUNT_ID: meta.accountId,
      },
    };
  } finally {
    await handle.close();
  }
}
