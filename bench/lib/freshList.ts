import pino from 'pino';
import { uuidv7 } from 'uuidv7';
import { connectPostgres, type DatabaseHandle } from '../../src/infra/db/client.js';
import { listSchemas } from '../../src/infra/db/schema/listSchemas.js';
import { createAccount } from '../../src/operator/operatorAccounts.js';
import { createBot } from '../../src/operator/operatorBots.js';
import { createProject } from '../../src/operator/operatorProjects.js';
import { BENCH_SERVER, benchDatabase } from './database.js';
import { FIELDS, recordWithoutContact } from './dataset.js';

/**
 * A new bench database `name` (on `server`) with one account, its project and bot, and an
 * empty list of the data set's ten fields: what the feed, webhook and import benches start from.
 */
export async function freshList(name: string, server = BENCH_SERVER) {
  const db = await benchDatabase(server, name, false);
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

/** Records 0 … count-1 of the data set into the list, 1,000 a request, through `serverUrl`'s API. */
export async function loadRecords(
  serverUrl: string,
  apiKey: string,
  listId: string,
  count: number,
) {
  for (let k = 0; k < count; k += 1000) {
    const res = await fetch(`${serverUrl}/api/v1/addListItems`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        schema_id: listId,
        items: Array.from({ length: Math.min(1000, count - k) }, (_, i) =>
          recordWithoutContact(k + i),
        ),
      }),
    });
    if (res.status !== 201) throw new Error(`loading records: ${res.status} ${await res.text()}`);
  }
}
