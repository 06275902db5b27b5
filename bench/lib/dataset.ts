/**
 * The benchmark's data set, built once per version and reused.
 *
 * List records are produced by the service's own storage code (validateData →
 * toStoredChanges, so `data` and the slot columns are exactly what addListItem writes) and
 * written with multi-row `unnest` inserts in global position order, so the lists' rows are
 * physically interleaved as in a live table. Contacts are generated in SQL
 * (`insert … select generate_series`): the table's statement triggers keep contact_stats.
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { uuidv7 } from 'uuidv7';
import { connectPostgres, queryRows, type Database } from '../../src/infra/db/client.js';
import { migratePostgres } from '../../src/infra/db/migrate.js';
import { listSchemas, type StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { createFieldCipher } from '../../src/lists/encryption/cipher.js';
import { toStoredChanges } from '../../src/lists/items/storedRow.js';
import { validateData } from '../../src/lists/items/validateData.js';
import { assignSlots } from '../../src/lists/slots.js';
import { admin, bulkLoadClient, databaseUrl } from './database.js';
import { createAccount } from '../../src/operator/operatorAccounts.js';
import { createBot } from '../../src/operator/operatorBots.js';
import { createProject } from '../../src/operator/operatorProjects.js';

export interface DatasetShape {
  /** records of the measured lists (c, d, e, f) */
  sizes: number[];
  /** other tenants' lists interleaved as noise: count × records each */
  noiseLists: number;
  noiseSize: number;
  /** contacts of the measured bot, and of other bots (same owner and another account) */
  contacts: number;
  otherContacts: number;
}

export interface Dataset {
  apiKey: string;
  accountId: number;
  botId: number;
  /** list size → list id */
  lists: Record<number, string>;
  /** an empty list of the same fields, for addListItem */
  insertList: string;
  /** telegram ids of the measured bot's contacts are CONTACT_ID_BASE + 0 … contacts - 1 */
  contactIdBase: number;
  /** first contact row id of the bot (contact fields of the records point at these) */
  firstContactId: number;
  rows: number;
}

/** Bump when the generated data changes shape: an older data set is then rebuilt. */
// 4: thin documents (slotted values in their slots only)
const VERSION = 4;
export const CONTACT_ID_BASE = 100_000_000;
export const ENCRYPTION_KEY = Buffer.alloc(32, 5).toString('base64');
/** records per contact in the measured lists (scenario e reads one contact's records) */
export const RECORDS_PER_CONTACT = 20;
const BATCH = 5000;

/** A field of a list as createListSchema takes it: named by its slug, optional, in clear. */
export const fieldInput = (slug: string, type: string, extra: Partial<StoredField> = {}) => ({
  slug,
  name: slug,
  type,
  is_required: false,
  is_hidden: false,
  is_encryptable: false,
  ...extra,
});

/** Ten fields of mixed types; slots in field order (t1-t3, n1-n3, d1-d2, contact_id; bool has none left). */
export const FIELDS = assignSlots([
  fieldInput('s1', 'string'),
  fieldInput('s2', 'string'),
  fieldInput('note', 'string'),
  fieldInput('n1', 'number'),
  fieldInput('n2', 'number'),
  fieldInput('price', 'money', { currency: 'USD' }),
  fieldInput('flag', 'bool'),
  fieldInput('day', 'date'),
  fieldInput('at', 'datetime'),
  fieldInput('contact', 'contact'),
]) as StoredField[];

/** Record k of a list with `contacts` contacts, as a client would send it. */
export function recordInput(k: number, contacts: number, firstContactId: number) {
  const day = new Date(Date.UTC(2024, 0, 1) + (k % 730) * 86_400_000);
  return {
    s1: `v${k % 200}`,
    s2: `name ${k % 5000}`,
    note: `note ${(k * 2654435761) % 1_000_003}`,
    n1: (k * 7919) % 100_000,
    n2: k % 1000,
    price: ((k * 31) % 100_000) / 100,
    flag: k % 2 === 0,
    day: day.toISOString().slice(0, 10),
    at: new Date(day.getTime() + (k % 86_400) * 1000).toISOString(),
    contact: firstContactId + (k % Math.max(1, Math.floor(contacts / RECORDS_PER_CONTACT))),
  };
}

/** Record k of the data set without its contact value, for databases that hold no contacts. */
export function recordWithoutContact(k: number) {
  const record: Partial<ReturnType<typeof recordInput>> = recordInput(k, 1, 1);
  delete record.contact;
  return record;
}

function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Creates and migrates the database if needed; builds the data set unless this version is there. */
export async function ensureDataset(
  serverUrl: string,
  dbName: string,
  shape: DatasetShape,
  log: (line: string) => void,
): Promise<Dataset> {
  const exists = (await admin(serverUrl, `select 1 from pg_database where datname = '${dbName}'`))
    .rowCount;
  if (!exists) await admin(serverUrl, `create database ${dbName}`);
  const url = databaseUrl(serverUrl, dbName);
  await migratePostgres(url);
  const handle = connectPostgres(url, pino({ level: 'silent' }), { statementTimeoutMs: 3_600_000 });
  const key = JSON.stringify({ version: VERSION, ...shape });
  try {
    await handle.db.execute(
      sql`create table if not exists bench_meta (key text primary key, dataset jsonb not null)`,
    );
    const [found] = await queryRows<{ dataset: Dataset }>(
      handle.db,
      sql`select dataset from bench_meta where key = ${key}`,
    );
    if (found) {
      log(`reusing data set in ${dbName} (${found.dataset.rows} list records)`);
      return found.dataset;
    }
    if ((await queryRows(handle.db, sql`select 1 from accounts limit 1`)).length > 0) {
      // Another version's data: start over in a fresh database of our own.
      await handle.close();
      await admin(serverUrl, `drop database ${dbName} with (force)`);
      return ensureDataset(serverUrl, dbName, shape, log);
    }
    const dataset = await build(handle.db, url, shape, log);
    await handle.db.execute(
      sql`insert into bench_meta (key, dataset) values (${key}, ${JSON.stringify(dataset)}::jsonb)`,
    );
    return dataset;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function build(db: Database, url: string, shape: DatasetShape, log: (l: string) => void) {
  const started = Date.now();
  const account = await createAccount(db, { email: `bench-${Date.now()}@bench.test` });
  const project = await createProject(db, account.id, 'bench');
  const bot = await createBot(db, project.uuid, 'bench');
  const other = await createAccount(db, { email: `bench-other-${Date.now()}@bench.test` });
  const otherProject = await createProject(db, other.id, 'noise');

  const firstContactId = await buildContacts(
    db,
    account.id,
    bot.id,
    project.uuid,
    other.id,
    otherProject.uuid,
    shape,
  );
  log(`contacts built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const makeList = async (name: string, owner: number, projectUuid: string) => {
    const id = uuidv7();
    await db.insert(listSchemas).values({ id, projectUuid, ownerId: owner, name, fields: FIELDS });
    return id;
  };
  const lists: Record<number, string> = {};
  for (const size of shape.sizes)
    lists[size] = await makeList(`size ${size}`, account.id, project.uuid);
  const insertList = await makeList('inserts', account.id, project.uuid);
  const noise: string[] = [];
  for (let i = 0; i < shape.noiseLists; i++)
    noise.push(await makeList(`noise ${i}`, other.id, otherProject.uuid));

  // Groups drawn in proportion to what each still has to place: interleaved, reproducible.
  const groups = [
    ...shape.sizes.map((size) => ({ size, next: 0, list: (k: number) => (void k, lists[size]!) })),
    {
      size: shape.noiseLists * shape.noiseSize,
      next: 0,
      list: (k: number) => noise[k % noise.length]!,
    },
  ].filter((g) => g.size > 0);
  const total = groups.reduce((a, g) => a + g.size, 0);
  const random = mulberry32(42);
  const cipher = createFieldCipher(ENCRYPTION_KEY);
  const { client, rebuildIndexes } = await bulkLoadClient(url, '256MB');
  const base = Date.UTC(2024, 0, 1);
  let remaining = total;
  const cols = {
    id: [] as string[],
    schema: [] as string[],
    data: [] as string[],
    created: [] as string[],
  } as Record<string, (string | null)[]>;
  const slotNames = ['t1', 't2', 't3', 'n1', 'n2', 'n3', 'd1', 'd2', 'contact_id'] as const;
  const reset = () => {
    for (const k of ['id', 'schema', 'data', 'created', ...slotNames]) cols[k] = [];
  };
  reset();
  const flush = async () => {
    if (cols.id!.length === 0) return;
    await client.query(
      `insert into list_items (id, schema_id, list_key, owner_id, data, created_at, updated_at, ${slotNames.join(', ')})
       select id, s, hashtextextended(s, 0), (select owner_id from list_schemas where id = s), d, c, c, t1, t2, t3, n1, n2, n3, d1, d2, ci from unnest(
         $1::text[], $2::text[], $3::jsonb[], $4::timestamptz[], $5::text[], $6::text[], $7::text[],
         $8::numeric[], $9::numeric[], $10::numeric[], $11::timestamptz[], $12::timestamptz[], $13::bigint[])
         as u(id, s, d, c, t1, t2, t3, n1, n2, n3, d1, d2, ci)`,
      [cols.id, cols.schema, cols.data, cols.created, ...slotNames.map((s) => cols[s])],
    );
    reset();
  };
  for (let i = 0; i < total; i++) {
    let pick = random() * remaining;
    const group =
      groups.find((g) => g.size > g.next && (pick -= g.size - g.next) < 0) ??
      groups.find((g) => g.size > g.next)!;
    const k = group.next++;
    remaining--;
    const contacts = Math.min(shape.contacts, Math.max(RECORDS_PER_CONTACT, group.size));
    const values = validateData(FIELDS, recordInput(k, contacts, firstContactId), 'add');
    const changes = toStoredChanges(FIELDS, values, cipher);
    cols.id!.push(uuidv7());
    cols.schema!.push(group.list(k));
    cols.data!.push(JSON.stringify(changes.kept));
    cols.created!.push(new Date(base + i * 1000).toISOString());
    for (const s of slotNames) cols[s]!.push(changes.slots[s] ?? null);
    if (cols.id!.length >= BATCH) await flush();
    if (i % 200_000 === 0 && i > 0) log(`  ${i} / ${total} records`);
  }
  await flush();
  log(`records in after ${((Date.now() - started) / 1000).toFixed(1)} s; indexing …`);
  await rebuildIndexes();
  for (const [size, id] of Object.entries(lists)) {
    await client.query('update list_schemas set item_count = $1 where id = $2', [Number(size), id]);
  }
  await client.query('update list_schemas set item_count = $1 where owner_id = $2', [
    shape.noiseSize,
    other.id,
  ]);
  await client.query(
    'update projects set list_count = (select count(*) from list_schemas l where l.project_uuid = projects.uuid)',
  );
  log('vacuum analyze …');
  for (const table of [
    'list_items',
    'list_schemas',
    'contacts',
    'contact_variables',
    'contact_stats',
  ]) {
    await client.query(`vacuum analyze ${table}`);
  }
  await client.end();
  log(`data set built in ${((Date.now() - started) / 1000).toFixed(1)} s: ${total} list records`);
  return {
    apiKey: account.api_key,
    accountId: account.id,
    botId: bot.id,
    lists,
    insertList,
    contactIdBase: CONTACT_ID_BASE,
    firstContactId,
    rows: total,
  } satisfies Dataset;
}

/** The measured bot's contacts (1 % preview, tags, 10 % with two utm variables), then other bots'. */
async function buildContacts(
  db: Database,
  ownerId: number,
  botId: number,
  projectUuid: string,
  otherOwner: number,
  otherProject: string,
  shape: DatasetShape,
): Promise<number> {
  const insert = async (bot: number, owner: number, from: number, count: number) => {
    await db.execute(sql`
      insert into contacts (bot_id, owner_id, messenger, telegram_id, telegram_username, name, phone,
                            email, tags, preview, first_message, created_at, updated_at)
      select ${bot}, ${owner}, 'telegram', ${from}::bigint + i, 'user' || i, 'Contact ' || i,
             '7999' || lpad(i::text, 7, '0'),
             case when i % 3 = 0 then 'c' || i || '@example.test' end,
             case when i % 5 = 0 then array['vip', 'imported'] else array['imported'] end,
             i % 100 = 99, 'Created from API',
             timestamptz '2023-01-01' + i * interval '30 seconds',
             timestamptz '2023-01-01' + i * interval '30 seconds'
      from generate_series(0, ${count - 1}) as i`);
    await db.execute(sql`
      insert into contact_variables (contact_id, owner_id, name, value)
      select c.id, c.owner_id, v.name, v.value from contacts c
      cross join lateral (values ('utm_source', 'ads'), ('utm_campaign', 'c' || (c.id % 7))) as v(name, value)
      where c.bot_id = ${bot} and c.id % 10 = 0`);
    await db.execute(sql`update bots set subscriber_count = ${count} where id = ${bot}`);
  };
  await insert(botId, ownerId, CONTACT_ID_BASE, shape.contacts);
  const [first] = await queryRows<{ id: number }>(
    db,
    sql`select min(id) as id from contacts where bot_id = ${botId}`,
  );
  // Other bots: half of the others' contacts in more bots of the same owner, half elsewhere.
  const perBot = Math.max(1, Math.floor(shape.otherContacts / 10));
  for (let b = 0; b < 10; b++) {
    const sameOwner = b < 5;
    const bot = await createBot(db, sameOwner ? projectUuid : otherProject, `other ${b}`);
    await insert(bot.id, sameOwner ? ownerId : otherOwner, 500_000_000 + b * 10_000_000, perBot);
  }
  return Number(first!.id);
}
