/**
 * Writes src/openapi/exampleAnswers.json (`npm run docs:examples`): the answer of every method
 * with a body, from real calls against the service on a throwaway embedded database, so the
 * document's response examples are answers the server actually gives. A test checks each
 * against the document's response schema; run this again after changing an answer's shape.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { format, resolveConfig } from 'prettier';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openEmbedded } from '../src/infra/db/client.js';
import { migrateEmbedded } from '../src/infra/db/migrate.js';
import { createAccount } from '../src/operator/operatorAccounts.js';
import { createBot } from '../src/operator/operatorBots.js';
import { createProject } from '../src/operator/operatorProjects.js';
import { createRuntime } from '../src/runtime.js';

const OUT = path.resolve(import.meta.dirname, '../src/openapi/exampleAnswers.json');

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'lk-examples-'));
  const handle = await openEmbedded(dir);
  await migrateEmbedded(handle.pglite);
  const config = loadConfig({
    DATA_DIR: dir,
    ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    BASE_URL: 'https://lists.example.com',
  });
  const runtime = createRuntime(config, handle, pino({ level: 'silent' }));
  const app = buildApp(runtime.deps);
  await app.ready();
  const account = await createAccount(handle.db, { email: 'ada@example.com', name: 'Ada' });
  const project = await createProject(handle.db, account.id, 'Shop');
  const bot = await createBot(handle.db, project.uuid, 'Shop bot');

  const answers: Record<string, Record<string, unknown>> = {};
  const call = async (method: string, params: Record<string, unknown>) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/${method}`,
      headers: { authorization: `Bearer ${account.api_key}`, accept: 'application/json' },
      payload: params,
    });
    const body = res.body ? (JSON.parse(res.body) as Record<string, unknown>) : undefined;
    if (res.statusCode >= 300) throw new Error(`${method}: ${res.statusCode} ${res.body}`);
    (answers[method] ??= {})[String(res.statusCode)] = body;
    return body as { data: Record<string, unknown> & { id: string } };
  };

  await call('getMe', {});
  const list = await call('createListSchema', {
    name: 'Orders',
    bot_id: bot.id,
    fields: [
      { name: 'Customer', slug: 'customer', type: 'string' },
      { name: 'Total', slug: 'total', type: 'money', currency: 'EUR', is_required: false },
      { name: 'Paid', slug: 'paid', type: 'bool', is_required: false },
    ],
  });
  const schemaId = list.data.id;
  await call('getListSchema', { schema_id: schemaId });
  await call('getListSchemas', {});
  const item = await call('addListItem', {
    schema_id: schemaId,
    data: { customer: 'Ada', total: 12.5, paid: true },
  });
  await call('addListItems', { schema_id: schemaId, items: [{ customer: 'Grace', total: 30 }] });
  await call('addListItems', {
    schema_id: schemaId,
    atomic: false,
    items: [{ customer: 'Alan', total: 7 }, { total: 1 }],
  });
  await call('updateListItem', { item_id: item.data.id, data: { paid: false } });
  await call('updateListItems', {
    schema_id: schemaId,
    items: [{ item_id: item.data.id, data: { total: 15 } }],
  });
  await call('getListItems', { schema_id: schemaId, limit: 2, order_by: 'total,desc' });
  await call('deleteListItems', {
    schema_id: schemaId,
    atomic: false,
    item_ids: ['01900000-0000-7000-8000-000000000000'],
  });
  const contact = { bot_id: bot.id, messenger: 'telegram', telegram_id: 123456789 };
  await call('createOrUpdateContact', { ...contact, name: 'Ada', tags: ['vip'] });
  await call('createOrUpdateContact', { ...contact, name: 'Ada L.' });
  await call('createOrUpdateContacts', {
    bot_id: bot.id,
    atomic: false,
    contacts: [
      { messenger: 'telegram', telegram_id: 123456789, name: 'Ada' },
      { messenger: 'vk', name: 'No id' },
    ],
  });
  await call('getContacts', { bot_id: bot.id, count: 1 });
  await call('getNumberOfContacts', { bot_id: bot.id });
  await call('getChanges', { limit: 2, types: ['list_item.created', 'contact.created'] });
  await call('createWebhook', {
    // an address, not a name: the generator runs without DNS
    url: 'https://203.0.113.10/listkeeper',
    types: ['list_item.created'],
  });
  await call('getWebhooks', {});

  const options = (await resolveConfig(OUT)) ?? {};
  writeFileSync(OUT, await format(JSON.stringify(answers), { ...options, filepath: OUT }));
  await app.close();
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
