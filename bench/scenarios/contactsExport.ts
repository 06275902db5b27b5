/**
 * Contacts benchmark (docs/contacts.md).
 *
 * 1. Imports N contacts (default 1,000,000) into one bot through `importContacts` (the code
 *    behind `contact import`), from NDJSON lines generated on the fly: the import rate.
 * 2. Exports them through the real getContacts route (app.inject: auth, rate limit,
 *    validation, JSON) in offset mode, `limit` per page, in sequence: first and last page.
 * 3. Jumps cold (no remembered positions) to the first and to the last page.
 * 4. Exports them again below HTTP, each page through the listing code path and by keyset
 *    (`id > last`, the floor an export can reach) side by side, and reads one plain `OFFSET`
 *    last page for comparison.
 *
 *   npx tsx bench/scenarios/contactsExport.ts [options]   (`--help` for them)
 * Uses BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres) with
 * a database of its own, `lk_bench_contacts`, and REDIS_URL (default redis://127.0.0.1:6379)
 * under a key prefix of its own. Trust ratios more than absolute times.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { importContacts } from '../../src/contacts/import.js';
import { findImportBot } from '../../src/contacts/importRepository.js';
import { listContacts } from '../../src/contacts/listing.js';
import { contactColumns, pageOfContacts } from '../../src/contacts/contactRepository.js';
import { connectPostgres, queryRows } from '../../src/infra/db/client.js';
import { createAccount } from '../../src/operator/operatorAccounts.js';
import { createBot } from '../../src/operator/operatorBots.js';
import { createProject } from '../../src/operator/operatorProjects.js';
import { createRuntime } from '../../src/runtime.js';
import { benchArgs } from '../lib/args.js';
import { BENCH_SERVER, benchDatabase } from '../lib/database.js';
import { cpuTicks, TICKS_PER_SECOND } from '../lib/procfs.js';
import { median } from '../lib/stats.js';
import { runEntry } from '../lib/entry.js';

const args = benchArgs({
  usage: 'npx tsx bench/scenarios/contactsExport.ts [options]',
  about:
    'Contacts below HTTP: the import rate of `contact import`, then getContacts in offset mode\npage by page, cold jumps to the first and last page, and the export against keyset paging.',
  flags: {
    reuse: 'keep the contacts an earlier run imported',
    'import-only': 'only the import',
  },
  options: {
    contacts: 'N  contacts imported into one bot (default 1000000)',
    limit: 'N  contacts a page (default 1000)',
    runs: 'N  cold jumps to each end, the median reported (default 5)',
  },
});
const CONTACTS = args.number('contacts', 1_000_000);
const LIMIT = args.number('limit', 1000);
const RUNS = args.number('runs', 5);
const REUSE = args.flag('reuse');
const IMPORT_ONLY = args.flag('import-only');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DB_NAME = 'lk_bench_contacts';
const ENCRYPTION_KEY = Buffer.alloc(32, 3).toString('base64');

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const fmt = (x: number) => x.toFixed(1);

/** NDJSON as an export of another system would give it: one contact per line, in the API's contact shape. */
async function* contactLines(n: number): AsyncIterable<string> {
  const start = Date.parse('2023-01-01T00:00:00Z');
  for (let i = 0; i < n; i++) {
    yield JSON.stringify({
      messenger: 'telegram',
      telegram_id: 100_000_000 + i,
      telegram_username: `user${i}`,
      name: `Contact ${i}`,
      phone: `7999${String(i).padStart(7, '0')}`,
      email: i % 3 === 0 ? `c${i}@example.test` : null,
      tags: i % 5 === 0 ? ['vip', 'imported'] : ['imported'],
      created_at: new Date(start + i * 1000).toISOString(),
      unsubscribed_at: null,
      preview: i % 100 === 99,
      ...(i % 10 === 0 ? { utm: { utm_source: 'ads', utm_campaign: `c${i % 7}` } } : {}),
    });
  }
}

async function main() {
  const { url, created } = await benchDatabase(BENCH_SERVER, DB_NAME, REUSE);
  const handle = connectPostgres(url, pino({ level: 'silent' }));
  const db = handle.db;

  let apiKey: string;
  let botId: number;
  const reused = created ? undefined : await existingTenant();
  if (reused) {
    ({ apiKey, botId } = reused);
    console.log(`reusing ${DB_NAME}: bot ${botId}`);
  } else {
    const account = await createAccount(db, { email: `bench-${Date.now()}@example.test` });
    const project = await createProject(db, account.id, 'Bench');
    botId = (await createBot(db, project.uuid, 'Bench')).id;
    apiKey = account.api_key;
    console.log(`importing ${CONTACTS} contacts (1 % preview, 10 % with two utm variables)…`);
    const start = process.hrtime.bigint();
    const nodeCpu = process.cpuUsage();
    const counts = await importContacts(db, botId, contactLines(CONTACTS));
    const seconds = ms(start) / 1000;
    const nodeMicros = Object.values(process.cpuUsage(nodeCpu)).reduce((a, b) => a + b, 0);
    const pgMicros = await backendCpuMicros(url);
    const perContact = (nodeMicros + pgMicros) / counts.imported;
    console.log(
      `| import | ${counts.imported} contacts in ${seconds.toFixed(1)} s | ${Math.round(counts.imported / seconds)} contacts/s |`,
    );
    // CPU spent, whatever else the machine was doing: what the rate would be on 2 idle cores
    console.log(
      `| import CPU per contact | ${fmt(nodeMicros / counts.imported)} µs Node + ${fmt(pgMicros / counts.imported)} µs Postgres | ${Math.round(2e6 / perContact)} contacts/s on 2 idle cores |`,
    );
    await db.execute(sql`VACUUM ANALYZE contacts`);
    await db.execute(sql`VACUUM ANALYZE contact_variables`);
    // an api key is only shown once: keep it for --reuse
    await db.execute(sql`CREATE TABLE IF NOT EXISTS bench_tenant (api_key text, bot_id bigint)`);
    await db.execute(sql`INSERT INTO bench_tenant VALUES (${apiKey}, ${botId})`);
  }

  if (IMPORT_ONLY) {
    await handle.close();
    return;
  }

  const config = loadConfig({
    DATABASE_URL: url,
    ENCRYPTION_KEY,
    REDIS_URL,
    RATE_LIMIT_PER_MINUTE: '10000000',
    LOG_LEVEL: 'silent',
  });
  const prefix = `lk_bench:${randomBytes(4).toString('hex')}:`;
  const runtime = createRuntime(
    config,
    { ...handle, close: async () => undefined },
    pino({ level: 'silent' }),
    {
      redisPrefix: prefix,
    },
  );
  const app = buildApp(runtime.deps);
  await app.ready();
  while (runtime.deps.redis?.status !== 'ready') await new Promise((r) => setTimeout(r, 20));

  const getPage = async (offset: number) => {
    const start = process.hrtime.bigint();
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/getContacts?bot_id=${botId}&offset=${offset}&limit=${LIMIT}`,
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
    });
    const took = ms(start);
    if (res.statusCode !== 200)
      throw new Error(`getContacts answered ${res.statusCode}: ${res.body}`);
    const body = res.json() as { data: { id: number }[]; meta: { total: number } };
    return { took, rows: body.data.length, total: body.meta.total };
  };
  const forgetHints = async () => {
    const redis = runtime.deps.redis!;
    const keys = await redis.keys(`${prefix}contacts:*`);
    if (keys.length > 0) await redis.del(...keys);
  };

  // Sequential export, as a client pages through it.
  await forgetHints();
  const times: number[] = [];
  const exportStart = process.hrtime.bigint();
  let total: number;
  for (let offset = 0; ; offset += LIMIT) {
    const page = await getPage(offset);
    total = page.total;
    if (page.rows === 0) break;
    times.push(page.took);
    if (page.rows < LIMIT) break;
  }
  const sequentialMs = ms(exportStart);
  const first = times[0]!;
  const last = times.at(-1)!;
  const head = median(times.slice(0, 10));
  const tail = median(times.slice(-10));

  // Cold jumps: nothing remembered, so the deferred join does the OFFSET.
  const lastOffset = Math.max(0, (Math.ceil(total / LIMIT) - 1) * LIMIT);
  const cold = { first: [] as number[], last: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    await forgetHints();
    cold.first.push((await getPage(0)).took);
    await forgetHints();
    cold.last.push((await getPage(lastOffset)).took);
  }

  // The whole export again below HTTP, page by page side by side with the floor — a keyset
  // export (`id > last`) from the repository, same columns and shape — so both see the same
  // machine load: the listing's code path (scope, hints, deferred join / seek) vs keyset.
  await forgetHints();
  const ownerId = (await findImportBot(db, botId))!.ownerId;
  let listingMs = 0;
  let keysetMs = 0;
  for (let offset = 0, afterId = 0; ; offset += LIMIT) {
    let start = process.hrtime.bigint();
    const listed = await listContacts(runtime.deps, ownerId, { botId }, { offset, limit: LIMIT });
    listed.items.map((c) => c.json).join(',');
    listingMs += ms(start);
    start = process.hrtime.bigint();
    const rows = await pageOfContacts(
      db,
      { ownerId, botId },
      {},
      { afterId, skip: 0, limit: LIMIT },
    );
    rows.map((c) => c.json).join(',');
    keysetMs += ms(start);
    if (rows.length < LIMIT) break;
    afterId = rows.at(-1)!.id;
  }

  // What a plain OFFSET last page costs (one run: it is the slow path being avoided).
  const plainStart = process.hrtime.bigint();
  await queryRows(
    db,
    sql`SELECT ${contactColumns()} FROM contacts c WHERE c.bot_id = ${botId} AND NOT c.preview
        ORDER BY c.id OFFSET ${lastOffset} LIMIT ${LIMIT}`,
  );
  const plainLast = ms(plainStart);

  console.log(
    `\n${total} listed contacts, ${times.length} pages of ${LIMIT}, ms per page (HTTP inject):`,
  );
  console.log('| measurement | value | target |');
  console.log('|---|---|---|');
  console.log(`| sequential: first page | ${fmt(first)} ms (median of first 10: ${fmt(head)}) | |`);
  console.log(`| sequential: last page | ${fmt(last)} ms (median of last 10: ${fmt(tail)}) | |`);
  console.log(
    `| sequential last / first (medians of 10) | ${(tail / head).toFixed(2)}× | ≤ 1.5× |`,
  );
  console.log(`| cold jump to first page (median of ${RUNS}) | ${fmt(median(cold.first))} ms | |`);
  console.log(`| cold jump to last page (median of ${RUNS}) | ${fmt(median(cold.last))} ms | |`);
  console.log(
    `| cold last / cold first | ${(median(cold.last) / median(cold.first)).toFixed(2)}× | ≤ 12× |`,
  );
  console.log(`| whole sequential export through HTTP | ${(sequentialMs / 1000).toFixed(1)} s | |`);
  console.log(
    `| whole sequential export, listing code path | ${(listingMs / 1000).toFixed(1)} s | |`,
  );
  console.log(
    `| whole keyset export (same pages, interleaved) | ${(keysetMs / 1000).toFixed(1)} s | |`,
  );
  console.log(`| sequential / keyset | ${(listingMs / keysetMs).toFixed(2)}× | ≤ 2× |`);
  console.log(`| plain OFFSET last page (for comparison) | ${fmt(plainLast)} ms | |`);

  await forgetHints();
  await app.close();
  await runtime.close();
  await handle.close();

  async function existingTenant() {
    const [row] = await queryRows<{ api_key: string; bot_id: string | number }>(
      db,
      sql`SELECT api_key, bot_id FROM bench_tenant LIMIT 1`,
    ).catch(() => []);
    return row ? { apiKey: row.api_key, botId: Number(row.bot_id) } : undefined;
  }
}

/** CPU time (µs) of the Postgres backends connected to the benchmark database (Linux /proc). */
async function backendCpuMicros(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    let ticks = 0;
    for (const { pid } of rows) {
      try {
        ticks += cpuTicks(pid).ticks;
      } catch {
        // a backend that ended meanwhile
      }
    }
    return (ticks / TICKS_PER_SECOND) * 1e6;
  } finally {
    await client.end();
  }
}

runEntry(main);
