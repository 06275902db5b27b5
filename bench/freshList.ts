import pino from 'pino';
import { uuidv7 } from 'uuidv7';
import { connectPostgres, type DatabaseHandle } from '../src/infra/db/client.js';
import { listSchemas } from '../src/infra/db/schema/listSchemas.js';
import { createAccount } from '../src/operator/accounts.js';
import { createBot } from '../src/operator/bots.js';
import { createProject } from '../src/operator/projects.js';
import { BENCH_SERVER, benchDatabase } from './database.js';
import { FIELDS } from './dataset.js';

/**
 * A new bench database `name` with one account, its project and bot, and an empty list of
 * the data set's ten fields: what the feed, webhook and import benches start from.
 */
export async function freshList(name: string) {
  const db = await benchDatabase(BENCH_SERVER, name, false);
  const handle: DatabaseHandle = connectPostgres(db.url, pino({ level: 'silent' }));
  const account = await createAccount(handle.db, { email: `${name}@bench.test` });
  const project = await createProject(handle.db, account.id, 'Bench');
  const bot = await createBot(handle.db, project.uuid, 'Bench bot');
  const listId = uuidv7();
  await handle.db.insert(listSchemas).values({
    id: listId,
    projectUuid: project.uuid,
    ownerId: account.id,
    botId: bot.id,
    name: 'Bench list',
    fields: FIELDS,
  });
  return { url: db.url, handle, account, project, bot, listId };
}

/** Record k of the data set without its contact value (these databases hold no contacts). */
export function recordWithoutContact(k: number, input: (k: number) => { contact?: unknown }) {
  const record: { contact?: unknown } = input(k);
  delete record.contact;
  return record;
}
