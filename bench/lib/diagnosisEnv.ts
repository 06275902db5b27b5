/**
 * What the diagnosis tools (bench/diagnosis/) share: the API path they measure, and the API
 * key and server environment of the data set they run on: `lk_bench` (built by `npm run
 * bench`) or `lk_sweep` (built by `npm run bench:sweep`, whose 1,000,000-record list the
 * first-time reads are measured on).
 */
import pino from 'pino';
import { sql, type SQL } from 'drizzle-orm';
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

/** Where each data set lives, what reads its API key (and account), and what builds it. */
const DATA_SETS: Record<DiagnosisData, { database: string; meta: SQL; builtBy: string }> = {
  bench: {
    database: 'lk_bench',
    meta: sql`select dataset->>'apiKey' as key, dataset->>'accountId' as "accountId" from bench_meta limit 1`,
    builtBy: 'npm run bench',
  },
  // the sweep's first-time server runs as benchServiceEnv does: nothing remembered; its one
  // account owns every list
  sweep: {
    database: 'lk_sweep',
    meta: sql`select loaded->>'apiKey' as key,
        (select owner_id::text from list_schemas order by item_count desc limit 1) as "accountId"
      from sweep_meta limit 1`,
    builtBy: 'npm run bench:sweep',
  },
};

/**
 * A data set's API key, and the environment a server under diagnosis runs with; `database`
 * another database holding the same data set (the sweep's with other lists, a copy of it).
 */
export async function benchServerEnv(
  data: DiagnosisData = 'bench',
  database?: string,
): Promise<{ apiKey: string; env: Record<string, string> }> {
  const set = DATA_SETS[data];
  const name = database ?? set.database;
  const dbUrl = databaseUrl(BENCH_SERVER, name);
  const handle = connectPostgres(dbUrl, pino({ level: 'silent' }));
  try {
    const [meta] = await queryRows<{ key: string; accountId: string | null }>(handle.db, set.meta);
    if (!meta) throw new Error(`no ${data} data set in ${name}: run \`${set.builtBy}\` first`);
    return {
      apiKey: meta.key,
      env: {
        ...benchServiceEnv(dbUrl),
        // the account the `--auth off` variant answers as (bench/servers/variantServer.ts)
        ...(meta.accountId !== null ? { BENCH_ACCOUNT_ID: meta.accountId } : {}),
      },
    };
  } finally {
    await handle.close();
  }
}

/** The id of the sweep's list of `size` records, or of its largest list. */
export async function sweepListId(databaseUrl: string, size?: number): Promise<string> {
  const handle = connectPostgres(databaseUrl, pino({ level: 'silent' }));
  try {
    const [list] = await queryRows<{ id: string }>(
      handle.db,
      sql`select id from list_schemas where deleted_at is null
            ${size === undefined ? sql`` : sql`and item_count = ${size}`}
          order by item_count desc limit 1`,
    );
    if (!list)
      throw new Error(`no list of ${size ?? 'any number of'} records in the sweep's database`);
    return list.id;
  } finally {
    await handle.close();
  }
}

/**
 * The scale of the `n`th first-time read's bound: the share times 0.5–1.5, so each request
 * sends a bound not sent before, repeating only after 10,007 requests.
 */
export function firstTimeScale(n: number): number {
  return 0.5 + ((n * 7919) % 10_007) / 10_007;
}
