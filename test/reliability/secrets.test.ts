import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, queryRows } from '../../src/infra/db/client.js';
import { createAccount } from '../../src/operator/operatorAccounts.js';
import { call, TRANSPORTS, type Transport } from '../helpers/call.js';
import { run } from '../helpers/processes.js';
import { startTestApp } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * Canary keys, encrypted values and phones/emails never reach a log line
 * or an error body (also when a write fails inside Postgres), the encrypted canary is not in
 * a pg_dump in plaintext, and passwords are argon2id with OWASP's parameters.
 */
let listId: string;
const tag = randomBytes(4).toString('hex');
const SECRET = `canary-secret-${tag}`;
const PHONE = `1555${parseInt(tag, 16).toString().slice(0, 7).padStart(7, '0')}`;
const EMAIL = `canary-${tag}@example.test`;

const errorBodies: string[] = [];

async function as(method: string, params: Record<string, unknown>, via: Transport = 'json') {
  const res = await call(t.app, method, params, { key: t.tenant.apiKey, via });
  if (res.status >= 400) errorBodies.push(res.raw.body);
  return res;
}

function canaries() {
  return [t.tenant.apiKey, SECRET, PHONE, EMAIL];
}

function expectClean(texts: string[], where: string) {
  for (const canary of canaries()) {
    const hit = texts.find((l) => l.includes(canary));
    expect(
      hit?.slice(Math.max(0, (hit?.indexOf(canary) ?? 0) - 600), (hit?.indexOf(canary) ?? 0) + 100),
      `${where} holds a canary`,
    ).toBeUndefined();
  }
}

const t = testAppForFile({
  env: { LOG_LEVEL: 'trace', RATE_LIMIT_PER_MINUTE: '100000' },
  tenants: ['tenant'],
});
beforeAll(async () => {
  const list = await as('createListSchema', {
    name: 'Secrets',
    project_uuid: t.tenant.projectUuid,
    fields: [
      { name: 'Title', slug: 'title', type: 'string', is_required: false },
      { name: 'Secret', slug: 'secret', type: 'string', is_encryptable: true, is_required: false },
      { name: 'Who', slug: 'who', type: 'contact', is_required: false },
    ],
  });
  listId = list.body.data.id;
});

describe('canaries in logs and error bodies', () => {
  it('writes no key, encrypted value, phone or email to a log line or error body on any path', async () => {
    const contact = await as('createOrUpdateContact', {
      bot_id: t.tenant.botId,
      messenger: 'telegram',
      telegram_id: 77,
      name: 'Canary',
      phone: `+${PHONE}`,
      email: EMAIL,
    });
    expect(contact.status).toBe(201);
    const added = await as('addListItem', {
      schema_id: listId,
      data: { title: 't', secret: SECRET, who: contact.body.data.id },
    });
    expect(added.status).toBe(201);
    const item = added.body.data.id as string;

    for (const via of TRANSPORTS) {
      // successes that return the canaries, and every kind of refusal around them
      await as('getListItems', { schema_id: listId }, via);
      await as('getListItems', { schema_id: listId, filters: { secret: SECRET } }, via);
      await as('getListItems', { schema_id: listId, order_by: 'secret,asc' }, via);
      await as('getListItems', { schema_id: listId, limit: 1001 }, via);
      await as('updateListItem', { item_id: item, data: { title: 'x'.repeat(501) } }, via);
      await as('updateListItem', { item_id: item, data: { who: 987654321 } }, via);
      await as('addListItem', { schema_id: listId, data: { secret: { nested: true } } }, via);
      await as('getContacts', { bot_id: t.tenant.botId }, via);
      await as('getContacts', { count: 0 }, via);
      await as('getNumberOfContacts', { date_from: -1 }, via);
      await as(
        'createOrUpdateContact',
        {
          bot_id: t.tenant.botId,
          messenger: 'telegram',
          telegram_id: 77,
          name: 'Canary',
          email: 'nope',
        },
        via,
      );
      await as(
        'createOrUpdateContact',
        { bot_id: 1, messenger: 'telegram', telegram_id: 77, name: 'C' },
        via,
      );
      await as('getListSchema', { schema_id: 'missing' }, via);
      await as('getMe', {}, via);
      // the key in the query string and the body, with wrong and right neighbours
      await call(t.app, 'getMe', { api_token: t.tenant.apiKey }, { via });
      await call(t.app, 'getListItems', { api_token: t.tenant.apiKey, schema_id: 'nope' }, { via });
      await call(t.app, 'getMe', {}, { key: `${t.tenant.apiKey}x`, via });
    }
    expect(errorBodies.length).toBeGreaterThan(20);
    expectClean(t.logs, 'a log line');
    expectClean(errorBodies, 'an error body');
    // the logs did record these requests (trace level): the check is not vacuous
    expect(t.logs.length).toBeGreaterThan(100);
  });

  it('keeps the values out of the log when a write fails inside Postgres', async () => {
    // Another session holds the records table; the insert gives up after lock_timeout.
    const blocker = new pg.Client({ connectionString: t.database.url });
    await blocker.connect();
    await t.db.execute(sql.raw(`ALTER DATABASE ${t.database.name} SET lock_timeout = '300ms'`));
    // a pool of its own, so its sessions start with the lock_timeout
    const handle = connectPostgres(t.database.url, { error: () => undefined });
    const fresh = await startTestApp({
      database: { ...t.database, handle },
      env: { LOG_LEVEL: 'trace' },
    });
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE list_items, contacts IN ACCESS EXCLUSIVE MODE');
      const writes = [
        await call(
          fresh.app,
          'addListItem',
          { schema_id: listId, data: { title: 'locked', secret: SECRET } },
          { key: t.tenant.apiKey },
        ),
        await call(
          fresh.app,
          'createOrUpdateContact',
          {
            bot_id: t.tenant.botId,
            messenger: 'telegram',
            telegram_id: 78,
            name: 'C',
            phone: `+${PHONE}`,
            email: EMAIL,
          },
          { key: t.tenant.apiKey },
        ),
      ];
      for (const res of writes) {
        // lock contention is retryable: 503 with Retry-After, not a 500
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBeDefined();
        expectClean([res.raw.body], 'the failed write’s answer');
      }
      // the failure itself was logged (with its cause), just not the values
      expect(fresh.logs.some((l) => /"level":(40|50)/.test(l) && /lock/i.test(l))).toBe(true);
      expectClean(fresh.logs, 'a log line of a failed write');
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
      await t.db.execute(sql.raw(`ALTER DATABASE ${t.database.name} RESET lock_timeout`));
      await fresh.close();
      await handle.close();
    }
  });
});

describe('what Postgres holds', () => {
  it('has neither the API key nor the encrypted canary in plaintext in a pg_dump', async () => {
    const dump = await run('pg_dump', ['--data-only', t.database.url], {});
    expect(dump.code, dump.stderr).toBe(0);
    expect(dump.stdout).toContain('enc:v1:');
    expect(dump.stdout).not.toContain(SECRET);
    expect(dump.stdout).not.toContain(t.tenant.apiKey);
  });

  it('stores passwords as argon2id with OWASP’s parameters (19 MiB, t=2, p=1) and never in clear', async () => {
    const password = `canary-password-${tag}`;
    const account = await createAccount(t.db, { email: `pw-${tag}@example.test`, password });
    const [row] = await queryRows<{ hash: string }>(
      t.db,
      sql`SELECT password_hash AS hash FROM accounts WHERE id = ${account.id}`,
    );
    // PHC string: $argon2id$v=19$<m,t,p in any order>$<salt>$<hash>
    const [, params] =
      /^\$argon2id\$v=19\$([^$]+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(row!.hash) ?? [];
    expect(params?.split(',').sort()).toEqual(['m=19456', 'p=1', 't=2']);
    const dump = await run('pg_dump', ['--data-only', '--table=accounts', t.database.url], {});
    expect(dump.stdout).not.toContain(password);
  });
});
