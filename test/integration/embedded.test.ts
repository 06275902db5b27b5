import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callHttp,
  ensureBuilt,
  runCli,
  startServer,
  type ServerProcess,
} from '../helpers/processes.js';

// The embedded default (docs/operations.md "Embedded first start"):
// no DATABASE_URL, no REDIS_URL, PGlite under DATA_DIR, a demo account on the first start.
interface Demo {
  api_key: string;
  account_id: number;
  project_uuid: string;
  bot_id: number;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'lk-embedded-'));
const env = { DATA_DIR: dataDir };
let server: ServerProcess;
let demo: Demo;

// Starting a server or CLI process takes seconds on a loaded machine: a safety net, not a goal.
const PROCESSES = { timeout: 180_000 };

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer(env);
  demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-account.json'), 'utf8')) as Demo;
}, 180_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('first start on the embedded default', PROCESSES, () => {
  it('writes DATA_DIR/demo-account.json with exactly the contract keys and prints the key', () => {
    expect(Object.keys(demo)).toEqual(['api_key', 'account_id', 'project_uuid', 'bot_id']);
    expect(demo.api_key).toMatch(/^lk_\S+$/);
    expect(server.stdout()).toContain(demo.api_key);
    expect(server.stdout()).toContain(demo.project_uuid);
    // the key file and the generated encryption key are readable by the owner only
    expect(statSync(path.join(dataDir, 'demo-account.json')).mode & 0o777).toBe(0o600);
    const key = readFileSync(path.join(dataDir, 'encryption.key'), 'utf8').trim();
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(statSync(path.join(dataDir, 'encryption.key')).mode & 0o777).toBe(0o600);
  });

  it('is ready with the embedded database and the in-process limiter', async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ postgres: true, redis: null });
  });

  it('answers getMe with the demo key: a Pro account (the authentication rules)', async () => {
    const me = await callHttp(server.url, 'getMe', {}, demo.api_key);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: demo.account_id, plan: 'pro' });
  });

  it('creates a list in the demo bot and adds a record through the same query code as Postgres', async () => {
    const list = await callHttp(
      server.url,
      'createListSchema',
      {
        name: 'Orders',
        bot_id: demo.bot_id,
        fields: [
          { name: 'Title', slug: 'title', type: 'string' },
          { name: 'Total', slug: 'total', type: 'money', currency: 'EUR' },
        ],
      },
      demo.api_key,
    );
    expect(list.status).toBe(201);
    expect(list.body.data).toMatchObject({ project: demo.project_uuid, bot_id: demo.bot_id });
    const item = await callHttp(
      server.url,
      'addListItem',
      { schema_id: list.body.data.id, data: { title: 'First', total: 12.5 } },
      demo.api_key,
    );
    expect(item.status).toBe(201);
    expect(item.body.data).toMatchObject({ title: 'First', total: 12.5 });
  });

  it('creates and updates contacts one at a time and in batches (their key locks on PGlite)', async () => {
    const one = await callHttp(
      server.url,
      'createOrUpdateContact',
      { bot_id: demo.bot_id, messenger: 'telegram', telegram_id: 777, name: 'Ada' },
      demo.api_key,
    );
    expect(one.status).toBe(201);
    const contacts = [
      { messenger: 'telegram', telegram_id: 777, name: 'Ada Lovelace' },
      { messenger: 'vk', vk_id: 888, name: 'Grace' },
    ];
    const bulk = await callHttp(
      server.url,
      'createOrUpdateContacts',
      { bot_id: demo.bot_id, contacts },
      demo.api_key,
    );
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.map((o: { status: number }) => o.status)).toEqual([200, 201]);
    // one messenger ID twice: the item-by-item path
    const twice = await callHttp(
      server.url,
      'createOrUpdateContacts',
      { bot_id: demo.bot_id, contacts: [contacts[1], { ...contacts[1], name: 'Grace H.' }] },
      demo.api_key,
    );
    expect(twice.body.data.map((o: { status: number }) => o.status)).toEqual([200, 200]);
    expect(twice.body.data[1].data).toMatchObject({ name: 'Grace H.' });
  });
});

describe('one process at a time (README: stop the server before the CLI)', PROCESSES, () => {
  it('the CLI refuses the embedded database while the server holds it, in one line', async () => {
    const res = await runCli(['account', 'create', '--email', 'ops@example.test', '--json'], env);
    expect(res.code).toBe(69);
    expect(res.stdout).toBe('');
    expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/in use by process \d+.*stop the server first/);
  });

  it('after SIGTERM the CLI works, and a restart keeps the demo account and sees the new one', async () => {
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    const created = await runCli(
      ['account', 'create', '--email', 'ops@example.test', '--json'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const account = JSON.parse(created.stdout) as { id: number; api_key: string };

    server = await startServer(env);
    // not a first start: no new demo account is printed or written
    expect(server.stdout()).not.toContain('demo Pro account');
    const again = JSON.parse(readFileSync(path.join(dataDir, 'demo-account.json'), 'utf8')) as Demo;
    expect(again).toEqual(demo);
    expect((await callHttp(server.url, 'getMe', {}, demo.api_key)).status).toBe(200);
    const me = await callHttp(server.url, 'getMe', {}, account.api_key);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: account.id, email: 'ops@example.test' });
  });
});
