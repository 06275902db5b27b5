/**
 * This build against another one — a checkout of an earlier commit, built — on the requests
 * of the main scenarios, in paired rounds (lib/pairedRounds.ts): each side runs its own server on
 * its own database, migrated and loaded by that server through the API, so a change of
 * schema and code is measured whole. How a change shows that no scenario got slower.
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)
 *   npm run bench:versions -- --before /tmp/before   (`--help` for the other options)
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { connectPostgres, queryRows } from '../../src/infra/db/client.js';
import { benchArgs } from '../lib/args.js';
import { BENCH_SERVER, admin, databaseUrl } from '../lib/database.js';
import { recordWithoutContact } from '../lib/dataset.js';
import { loadHttp, type HttpRequest } from '../lib/load.js';
import { pairedRounds } from '../lib/pairedRounds.js';
import { benchServiceEnv, startServer } from '../lib/serverProcess.js';

const args = benchArgs({
  usage:
    'npm run bench:versions -- --before DIR [options]   (or npx tsx bench/scenarios/versions.ts)',
  about:
    'This build against another (a checkout of an earlier commit, built) on the main scenarios’\nrequests in paired rounds, each side on its own database loaded through its own API.',
  flags: { reuse: 'the databases of the last run, as they are (same --records), not loaded again' },
  options: {
    before: 'DIR  the checkout of the other version, built (required)',
    records: 'N  list records a side (default 300000)',
    contacts: 'N  contacts a side (default 20000)',
    rounds: 'N  paired rounds a request (default 6)',
    seconds: 'N  seconds per side and round (default 3)',
    only: "LIST  only the requests whose name contains one of these (e.g. 'getContacts,n1 >=')",
  },
});
const BEFORE = args.text('before');
if (!BEFORE) throw new Error('--before <checkout of the other version, built> is required');
const RECORDS = args.number('records', 300_000);
const CONTACTS = args.number('contacts', 20_000);
const ROUNDS = args.number('rounds', 6);
const SECONDS = args.number('seconds', 3);
const CONNECTIONS = 10;
const REUSE = args.flag('reuse');
const ONLY = args.list('only');

interface Side {
  name: string;
  url: string;
  apiKey: string;
  listId: string;
  botId: number;
  stop(): Promise<void>;
}

/** A fresh database, the side's server on it, an account made by that side's CLI, its data. */
async function side(name: string, checkout: string, port: number, redisDb: number) {
  const db = `lk_versions_${name}`;
  if (!REUSE) {
    await admin(BENCH_SERVER, `drop database if exists ${db} with (force)`);
    await admin(BENCH_SERVER, `create database ${db}`);
  }
  const env = {
    ...benchServiceEnv(databaseUrl(BENCH_SERVER, db)),
    REDIS_URL: `redis://127.0.0.1:6379/${redisDb}`,
  };
  const server = await startServer({ args: [path.join(checkout, 'dist/main.js')], env, port });
  const { execFileSync } = await import('node:child_process');
  const cli = (...args: string[]) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [path.join(checkout, 'dist/cli/cliMain.js'), ...args, '--json'],
        {
          env: { ...process.env, ...env },
        },
      ).toString(),
    ) as Record<string, unknown>;
  if (REUSE) {
    const handle = connectPostgres(databaseUrl(BENCH_SERVER, db), pino({ level: 'silent' }));
    const [found] = await queryRows<{ account: number; list: string; bot: number }>(
      handle.db,
      // the list this script loaded, not one a later experiment added to the database
      sql`select s.owner_id as account, s.id as list, b.id as bot
          from list_schemas s join bots b on b.owner_id = s.owner_id
          where s.deleted_at is null and s.name = 'Bench list'
          order by s.created_at limit 1`,
    ).finally(() => handle.close());
    if (!found) throw new Error(`--reuse: ${db} holds no list from an earlier run`);
    const key = cli('account', 'regenerate-key', '--id', String(found.account));
    return {
      name,
      url: server.url,
      apiKey: String(key.api_key),
      listId: found.list,
      botId: found.bot,
      stop: () => server.stop(),
    } satisfies Side;
  }
  const account = cli('account', 'create', '--email', `${name}@bench.test`, '--plan', 'pro');
  const accountId = String(account.id);
  const project = cli('project', 'create', '--owner', accountId, '--name', 'Bench');
  const projectUuid = String(project.uuid);
  const bot = cli('bot', 'create', '--project', projectUuid, '--name', 'Bench bot');
  const apiKey = String(account.api_key);
  const call = async (method: string, body: unknown) => {
    const res = await fetch(`${server.url}/api/v1/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${name} ${method}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: { id: string } };
  };
  const { FIELDS } = await import('../lib/dataset.js');
  const list = await call('createListSchema', {
    name: 'Bench list',
    project_uuid: projectUuid,
    fields: FIELDS.map((f) => ({ ...f, slot: undefined })),
  });
  for (let k = 0; k < RECORDS; k += 1000) {
    const items = Array.from({ length: Math.min(1000, RECORDS - k) }, (_, i) =>
      recordWithoutContact(k + i),
    );
    await call('addListItems', { schema_id: list.data.id, items });
  }
  for (let k = 0; k < CONTACTS; k += 500) {
    const contacts = Array.from({ length: Math.min(500, CONTACTS - k) }, (_, i) => ({
      messenger: 'telegram',
      telegram_id: 1_000_000 + k + i,
      name: `Contact ${k + i}`,
    }));
    await call('createOrUpdateContacts', { bot_id: bot.id, contacts });
  }
  await admin(databaseUrl(BENCH_SERVER, db), 'vacuum analyze');
  return {
    name,
    url: server.url,
    apiKey,
    listId: list.data.id,
    botId: Number(bot.id),
    stop: () => server.stop(),
  } satisfies Side;
}

if (!REUSE) console.log(`loading ${RECORDS} records and ${CONTACTS} contacts on each side …`);
const before = await side('before', BEFORE, 20_951, 8);
const after = await side('after', process.cwd(), 20_952, 9);

let written = RECORDS;
let contact = 0;
const workloads: [string, (s: Side) => () => HttpRequest][] = [
  [
    'getListSchema',
    (s) => () => ({ method: 'GET', path: `/api/v1/getListSchema?schema_id=${s.listId}` }),
  ],
  [
    'addListItem',
    (s) => () => ({
      method: 'POST',
      path: '/api/v1/addListItem',
      body: JSON.stringify({ schema_id: s.listId, data: recordWithoutContact(written++) }),
    }),
  ],
  [
    'addListItems (100 a call)',
    (s) => () => ({
      method: 'POST',
      path: '/api/v1/addListItems',
      body: JSON.stringify({
        schema_id: s.listId,
        items: Array.from({ length: 100 }, () => recordWithoutContact(written++)),
      }),
    }),
  ],
  [
    'getListItems: s1 = v7 (0.5 %), order_by n1',
    (s) => () => ({
      method: 'GET',
      path: `/api/v1/getListItems?schema_id=${s.listId}&filters[s1]=v7&order_by=n1,asc&limit=50`,
    }),
  ],
  [
    'getListItems: n1 >= 99000 (1 %), order_by created_at',
    (s) => () => ({
      method: 'GET',
      path: `/api/v1/getListItems?schema_id=${s.listId}&filters[n1]=${encodeURIComponent('>=,99000')}&limit=50`,
    }),
  ],
  [
    'getListItems: n2 = 7 (0.1 %), order_by n1',
    (s) => () => ({
      method: 'GET',
      path: `/api/v1/getListItems?schema_id=${s.listId}&filters[n2]=7&order_by=n1,asc&limit=50`,
    }),
  ],
  [
    'getListItems: n2 < 500 (50 %), order_by n1',
    (s) => () => ({
      method: 'GET',
      path: `/api/v1/getListItems?schema_id=${s.listId}&filters[n2]=${encodeURIComponent('<,500')}&order_by=n1,asc&limit=50`,
    }),
  ],
  [
    'getListItems: unfiltered, page 20',
    (s) => () => ({
      method: 'GET',
      path: `/api/v1/getListItems?schema_id=${s.listId}&limit=50&page=20`,
    }),
  ],
  [
    'getListItems: unfiltered, page 1',
    (s) => () => ({ method: 'GET', path: `/api/v1/getListItems?schema_id=${s.listId}&limit=50` }),
  ],
  [
    'createOrUpdateContact (new contacts)',
    (s) => () => ({
      method: 'POST',
      path: '/api/v1/createOrUpdateContact',
      body: JSON.stringify({
        bot_id: s.botId,
        messenger: 'telegram',
        telegram_id: 5_000_000 + contact++,
        name: 'New',
      }),
    }),
  ],
  [
    'getContacts, page 5',
    (s) => () => ({ method: 'GET', path: `/api/v1/getContacts?bot_id=${s.botId}&page=5` }),
  ],
  [
    'getNumberOfContacts',
    (s) => () => ({ method: 'GET', path: `/api/v1/getNumberOfContacts?bot_id=${s.botId}` }),
  ],
];

try {
  console.log(
    `versions bench: ${RECORDS} records, ${ROUNDS} paired rounds of ${SECONDS} s, ${CONNECTIONS} connections`,
  );
  console.log(
    "| request | before req/s (p50, p99) | after req/s (p50, p99) | after / before (rounds' middle half) |",
  );
  console.log('| --- | --- | --- | --- |');
  for (const [name, request] of workloads) {
    if (ONLY && !ONLY.some((o) => name.includes(o))) continue;
    const load = (s: Side) => loadHttp(s.url, s.apiKey, request(s), CONNECTIONS, SECONDS);
    await load(before);
    await load(after);
    const r = await pairedRounds(
      ROUNDS,
      () => load(before),
      () => load(after),
    );
    if (r.a.errors + r.b.errors > 0) throw new Error(`${name}: ${r.a.errors + r.b.errors} errors`);
    const cell = (x: typeof r.a) =>
      `${x.rps.toFixed(0)} (${x.p50.toFixed(2)}, ${x.p99.toFixed(1)} ms)`;
    // the middle half of the rounds' ratios: how far one run's median can be trusted
    const sorted = [...r.ratios].sort((x, y) => x - y);
    const quartile = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]!.toFixed(2);
    console.log(
      `| ${name} | ${cell(r.a)} | ${cell(r.b)} | ${r.ratio.toFixed(2)} (${quartile(0.25)}–${quartile(0.75)}) |`,
    );
  }
} finally {
  await before.stop();
  await after.stop();
}
