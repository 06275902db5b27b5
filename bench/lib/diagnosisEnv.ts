/**
 * What the diagnosis tools (bench/diagnosis/) share: the API path they measure, and the API
 * key and server environment of the data set they run on: `lk_bench` (built by `npm run
 * bench`) or `lk_sweep` (built by `npm run bench:sweep`, whose 1,000,000-record list the
 * first-time reads are measured on).
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

/** The data sets a diagnosis can run on (the `--data` option). */
export const DIAGNOSIS_DATA = ['bench', 'sweep'] as const;
export type DiagnosisData = (typeof DIAGNOSIS_DATA)[number];

/** `--data`'s value, checked. */
export function diagnosisData(value: string | undefined): DiagnosisData {
  const data = value ?? 'bench';
  if (!(DIAGNOSIS_DATA as readonly string[]).includes(data)) {
    throw new Error(`--data takes ${DIAGNOSIS_DATA.join(' or ')}; not ${data}`);
  }
  return data as DiagnosisData;
}

/** A data set's API key, and the environment a server under diagnosis runs with. */
export async function benchServerEnv(
  data: DiagnosisData = 'bench',
): Promise<{ apiKey: string; env: Record<string, string> }> {
  const dbUrl = databaseUrl(BENCH_SERVER, data === 'bench' ? 'lk_bench' : 'lk_sweep');
  if (data === 'sweep') return sweepServerEnv(dbUrl);
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

/** The sweep's key (the sweep's first-time server runs as benchServiceEnv, nothing remembered). */
async function sweepServerEnv(
  dbUrl: string,
): Promise<{ apiKey: string; env: Record<string, string> }> {
  const handle = connectPostgres(dbUrl, pino({ level: 'silent' }));
  try {
    const [meta] = await queryRows<{ key: string }>(
      handle.db,
      sql`select loaded->>'apiKey' as key from sweep_meta limit 1`,
    );
    if (!meta) throw new Error('no sweep data set in lk_sweep: run `npm run bench:sweep` first');
    return { apiKey: meta.key, env: benchServiceEnv(dbUrl) };
  } finally {
    await handle.close();
  }
}
