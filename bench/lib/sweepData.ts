/**
 * The sweep's database: one list per size written as addListItem writes (validateData →
 * toStoredChanges, multi-row inserts), its plain-table twin, and on request the records of
 * other lists of other owners in the same table. Built once per shape and reused.
 */
import pg from 'pg';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { connectPostgres, queryRows } from '../../src/infra/db/client.js';
import { listSchemas } from '../../src/infra/db/schema/listSchemas.js';
import { createFieldCipher } from '../../src/lists/encryption/cipher.js';
import { recordJsonText } from '../../src/lists/items/recordJson.js';
import { toStoredChanges } from '../../src/lists/items/storedRow.js';
import { validateData } from '../../src/lists/items/validateData.js';
import { createAccount } from '../../src/operator/operatorAccounts.js';
import { createBot } from '../../src/operator/operatorBots.js';
import { createProject } from '../../src/operator/operatorProjects.js';
import { BENCH_SERVER, benchDatabase, bulkLoadClient } from './database.js';
import { ENCRYPTION_KEY } from './dataset.js';
import { DAY0, FIELDS, recordInput } from './sweepShapes.js';

/** bump when the generated records change: the sweep's database is then rebuilt */
// 2: thin documents (slotted values in their slots only)
// 3: each record's JSON stored with it, as addListItems stores it (storedJson.ts)
const DATA_VERSION = 3;
/**
 * the records' JSON as addListItems stores it (Postgres's writer writes Node's text:
 * recordJson.test.ts), for the lists' first layout (0)
 */
const RECORD_JSON = recordJsonText(FIELDS)!;
const BATCH = 5000;
/** other lists hold this many records each, spread over this many other owners */
const OTHER_LIST_SIZE = 100_000;
const OTHER_OWNERS = 4;
const SLOTS = ['t1', 't2', 't3', 'n1', 'n2', 'n3', 'd1', 'd2', 'contact_id'] as const;
const SLOT_TYPES = 'text text text numeric numeric numeric timestamptz timestamptz bigint'.split(
  ' ',
);

export interface SweepData {
  url: string;
  apiKey: string;
  /** size → list id */
  lists: Record<number, string>;
  /** size → some item ids of that list, for the writes case */
  items: Record<number, string[]>;
  /** records of other lists in the same table (and in each twin's table) */
  otherRecords: number;
}

interface OtherLists {
  ids: string[];
  owners: number[];
}

/**
 * The sweep's database for these sizes and other records, built unless it is there: on the
 * bench's server, or on `server` (the Citus benchmark loads a coordinator).
 */
export async function loadSweepData(
  sizes: number[],
  dbName: string,
  otherRecords: number,
  log: (l: string) => void,
  { server = BENCH_SERVER, rebuild = false }: { server?: string; rebuild?: boolean } = {},
): Promise<SweepData> {
  const { url, created } = await benchDatabase(server, dbName, !rebuild);
  const handle = connectPostgres(url, pino({ level: 'silent' }), { statementTimeoutMs: 3_600_000 });
  const db = handle.db;
  const key = JSON.stringify(
    otherRecords > 0 ? { DATA_VERSION, sizes, otherRecords } : { DATA_VERSION, sizes },
  );
  try {
    await db.execute(
      sql`create table if not exists sweep_meta (key text primary key, loaded jsonb not null)`,
    );
    const [found] = await queryRows<{ loaded: SweepData }>(
      db,
      sql`select loaded from sweep_meta where key = ${key}`,
    );
    if (found && !created) {
      log(`reusing the sweep's records in ${dbName}`);
      // the database's own URL: a copy (the Citus benchmarks copy one) carries the original's
      return { ...found.loaded, url, otherRecords: found.loaded.otherRecords ?? 0 };
    }
    if (!created) {
      // loaded for other sizes or an older data set: start from an empty database
      await handle.close();
      return loadSweepData(sizes, dbName, otherRecords, log, { server, rebuild: true });
    }
    const started = Date.now();
    const account = await createAccount(db, { email: `sweep-${Date.now()}@bench.test` });
    const project = await createProject(db, account.id, 'sweep');
    await createBot(db, project.uuid, 'sweep');
    const makeList = async (projectUuid: string, ownerId: number, name: string) => {
      const id = uuidv7();
      await db.insert(listSchemas).values({ id, projectUuid, ownerId, name, fields: FIELDS });
      return id;
    };
    const others: OtherLists = { ids: [], owners: [] };
    const owners = [];
    for (let o = 0; o < Math.min(OTHER_OWNERS, otherRecords); o++) {
      const owner = await createAccount(db, { email: `sweep-other-${o}-${Date.now()}@bench.test` });
      owners.push({ id: owner.id, project: (await createProject(db, owner.id, 'other')).uuid });
    }
    for (let l = 0; l < Math.ceil(otherRecords / OTHER_LIST_SIZE); l++) {
      const owner = owners[l % owners.length]!;
      others.ids.push(await makeList(owner.project, owner.id, `other ${l}`));
      others.owners.push(owner.id);
    }
    const cipher = createFieldCipher(ENCRYPTION_KEY);
    const { client, rebuildIndexes } = await bulkLoadClient(url, '512MB');
    const lists: Record<number, string> = {};
    const items: Record<number, string[]> = {};
    const total = sizes.reduce((a, b) => a + b, 0);
    let placed = 0;
    for (const size of sizes) {
      const id = await makeList(project.uuid, account.id, `sweep ${size}`);
      lists[size] = id;
      items[size] = [];
      for (let start = 0; start < size; start += BATCH) {
        const cols: Record<string, (string | null)[]> = { id: [], data: [], created: [] };
        for (const s of SLOTS) cols[s] = [];
        for (let k = start; k < Math.min(size, start + BATCH); k++) {
          const changes = toStoredChanges(
            FIELDS,
            validateData(FIELDS, recordInput(k), 'add'),
            cipher,
          );
          const itemId = uuidv7();
          if (k % Math.max(1, Math.floor(size / 200)) === 0) items[size]!.push(itemId);
          cols.id!.push(itemId);
          cols.data!.push(JSON.stringify(changes.kept));
          cols.created!.push(new Date(DAY0 + k * 1000).toISOString());
          for (const s of SLOTS) cols[s]!.push(changes.slots[s] ?? null);
        }
        await client.query(
          `insert into list_items (id, schema_id, list_key, owner_id, data, created_at, updated_at, ${SLOTS.join(', ')}, record_json, record_layout)
           select id, $1, hashtextextended($1, 0), (select owner_id from list_schemas where id = $1), data, created_at, updated_at, ${SLOTS.join(', ')}, ${RECORD_JSON}, 0
           from (select id, d as data, c as created_at, c as updated_at, t1, t2, t3, n1, n2, n3, d1, d2, ci as contact_id, null::bigint as bot_id from unnest(
             $2::text[], $3::jsonb[], $4::timestamptz[], $5::text[], $6::text[], $7::text[],
             $8::numeric[], $9::numeric[], $10::numeric[], $11::timestamptz[], $12::timestamptz[],
             $13::bigint[]) as u(id, d, c, t1, t2, t3, n1, n2, n3, d1, d2, ci)) as list_items`,
          [id, cols.id, cols.data, cols.created, ...SLOTS.map((s) => cols[s])],
        );
        const batch = cols.id!.length;
        const want =
          Math.round((otherRecords * (placed + batch)) / total) -
          Math.round((otherRecords * placed) / total);
        placed += batch;
        if (want > 0) await insertOthers(client, cols, want, others);
      }
      await client.query('update list_schemas set item_count = $1 where id = $2', [size, id]);
      log(`  ${size} records in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
    if (others.ids.length > 0) {
      await client.query(
        `update list_schemas s set item_count = c.n
         from (select schema_id, count(*) as n from list_items where schema_id = any($1) group by 1) c
         where s.id = c.schema_id`,
        [others.ids],
      );
      log(`  ${otherRecords} records of ${others.ids.length} other lists among them`);
    }
    await rebuildIndexes();
    await client.query('vacuum analyze list_items');
    await client.query('vacuum analyze list_schemas');
    for (const size of sizes) {
      await buildPlainTwin(client, size, lists[size]!, others.ids);
      log(`  the plain twin of ${size} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
    await client.end();
    const loaded: SweepData = { url, apiKey: account.api_key, lists, items, otherRecords };
    await db.execute(
      sql`insert into sweep_meta (key, loaded) values (${key}, ${JSON.stringify(loaded)}::jsonb)`,
    );
    log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return loaded;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * `want` records of the other lists, copies of the batch just written (the same values, so
 * other lists match the sweep's filters as much as the measured list does), spread over the
 * other lists and written right after the batch: the lists' rows interleave in the table.
 */
async function insertOthers(
  client: pg.Client,
  cols: Record<string, (string | null)[]>,
  want: number,
  others: OtherLists,
) {
  const batch = cols.id!.length;
  const arrays = SLOTS.map((s, i) => `$${i + 3}::${SLOT_TYPES[i]}[]`).join(', ');
  const n = SLOTS.length + 3;
  await client.query(
    `insert into list_items (id, schema_id, list_key, owner_id, data, created_at, updated_at, ${SLOTS.join(', ')}, record_json, record_layout)
     select id, schema_id, list_key, owner_id, data, created_at, updated_at, ${SLOTS.join(', ')}, ${RECORD_JSON}, 0 from (
     select gen_random_uuid()::text as id, o.id as schema_id, hashtextextended(o.id, 0) as list_key, o.owner as owner_id,
       u.d as data, u.c as created_at, u.c as updated_at, ${SLOTS.map((s) => `u.${s}`).join(', ')}, null::bigint as bot_id
     from unnest($1::jsonb[], $2::timestamptz[], ${arrays})
            with ordinality as u(d, c, ${SLOTS.join(', ')}, n)
     cross join generate_series(0, $${n}::int - 1) as r
     join unnest($${n + 1}::text[], $${n + 2}::bigint[]) with ordinality as o(id, owner, j)
       on o.j = 1 + (u.n + r) % $${n + 3}
     order by r, u.n
     limit $${n + 4}) as list_items`,
    [
      cols.data,
      cols.created,
      ...SLOTS.map((s) => cols[s]),
      Math.ceil(want / batch),
      others.ids,
      others.owners,
      others.ids.length,
      want,
    ],
  );
}

/**
 * The same records in a table of typed columns, one b-tree per column (the generic layout).
 * With other lists in the database the twin holds their records too, in a `list_id` column
 * with its own b-tree, as a generic table of every list's records would.
 */
async function buildPlainTwin(client: pg.Client, size: number, listId: string, others: string[]) {
  const table = `plain_${size}`;
  const scoped = others.length > 0;
  await client.query(`drop table if exists ${table}`);
  await client.query(`create table ${table} (
    id text primary key, ${scoped ? 'list_id text not null, ' : ''}city text, segment text,
    note text, amount numeric, rank numeric, price numeric, flag boolean, day date,
    at timestamptz, contact bigint, created_at timestamptz not null,
    updated_at timestamptz not null)`);
  await client.query(
    `insert into ${table}
     select id, ${scoped ? 'schema_id, ' : ''}t1, t2, t3, n1, n2, n3, (data->>'flag')::boolean,
            (d1 at time zone 'UTC')::date, d2, contact_id, created_at, updated_at
     from list_items where schema_id = any($1) order by created_at`,
    [[listId, ...others]],
  );
  const columns = ['city', 'segment', 'note', 'amount', 'rank', 'price', 'flag', 'day', 'at'];
  for (const column of [...(scoped ? ['list_id'] : []), ...columns, 'contact'])
    await client.query(`create index on ${table} (${column})`);
  await client.query(`vacuum analyze ${table}`);
}

/** the twin's condition limiting a query to the measured list, when its table holds others */
export function twinScope(data: SweepData, size: number): string {
  return data.otherRecords > 0 ? `list_id = '${data.lists[size]!}' and ` : '';
}
