import argon2 from 'argon2';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { accounts, projectMembers, projects } from '../../src/infra/db/schema/index.js';
import { call } from '../helpers/call.js';
import { ensureBuilt, runCli, type RunResult } from '../helpers/processes.js';
import { cliEnvBeside } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

// The operator CLI (docs/operations.md, "Operator CLI") run as a separate process on the
// same database and Redis as a running app, as an operator would run it next to a server.
let env: Record<string, string>;
let counter = 0;

const t = testAppForFile();
beforeAll(async () => {
  await ensureBuilt();
  env = cliEnvBeside(t);
}, 180_000);

const cli = (...args: string[]) => runCli(args, env);

// Each test spawns up to five CLI processes; on a loaded machine (the whole suite in parallel)
// one takes seconds, so the per-test limit is a safety net well above that, not a speed goal.
const SPAWNS = { timeout: 180_000 };

/** --json: stdout is exactly one JSON object and a newline, exit 0. */
function json(result: RunResult): Record<string, unknown> {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.endsWith('}\n')).toBe(true);
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** A failure: non-zero exit, nothing on stdout, one line on stderr. */
function failure(result: RunResult, code: number): string {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

async function newAccount(...extra: string[]) {
  const email = `cli${++counter}-${Date.now()}@example.test`;
  const out = json(await cli('account', 'create', '--email', email, '--json', ...extra));
  return { id: out.id as number, key: out.api_key as string, email, out };
}

const getMe = (key: string) => call(t.app, 'getMe', {}, { key });

describe.concurrent('account create (contract: Operator CLI)', SPAWNS, () => {
  it('prints exactly id, email, name, plan and api_key, and the key works at once', async () => {
    const { out, email, key } = await newAccount();
    expect(Object.keys(out)).toEqual(['id', 'email', 'name', 'plan', 'api_key']);
    expect(out).toMatchObject({ email, plan: 'pro', name: email.split('@')[0] });
    expect(key).toMatch(/^lk_[A-Za-z0-9_-]{43}$/);
    const me = await getMe(key);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: out.id, email, plan: 'pro' });
  });

  it('takes a name, the free plan and a password stored as an argon2id hash', async () => {
    const { id, key, out } = await newAccount(
      '--name',
      'Grace Hopper',
      '--plan',
      'free',
      '--password',
      'correct horse',
    );
    expect(out).toMatchObject({ name: 'Grace Hopper', plan: 'free' });
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await argon2.verify(row!.passwordHash!, 'correct horse')).toBe(true);
    expect(row?.apiKeyHash).not.toContain(key);
    // the authentication rules: a free account's key answers 402
    const me = await getMe(key);
    expect(me.status).toBe(402);
    expect(me.body).toMatchObject({ code: 'pro_required' });
  });

  it('refuses a second account with the same email in one stderr line, exit 1', async () => {
    const { email } = await newAccount();
    const line = failure(await cli('account', 'create', '--email', email, '--json'), 1);
    expect(line).toContain(email);
    expect(line).toMatch(/already exists/);
  });

  it('prints a readable block instead of JSON without --json', async () => {
    const res = await cli('account', 'create', '--email', `human${Date.now()}@example.test`);
    expect(res.code).toBe(0);
    expect(() => JSON.parse(res.stdout)).toThrow();
    expect(res.stdout).toMatch(/^Account created\./);
    expect(res.stdout).toMatch(/^ {2}api_key: +lk_\S+$/m);
  });
});

describe.concurrent(
  'account regenerate-key and set-password (the authentication rules)',
  SPAWNS,
  () => {
    it('regenerate-key prints id and api_key; the old key answers 401 on the very next request', async () => {
      const { id, key: oldKey } = await newAccount();
      // twice, so a caching server has the old key in its cache
      expect((await getMe(oldKey)).status).toBe(200);
      expect((await getMe(oldKey)).status).toBe(200);
      const out = json(await cli('account', 'regenerate-key', '--id', String(id), '--json'));
      expect(Object.keys(out)).toEqual(['id', 'api_key']);
      expect(out.id).toBe(id);
      expect(out.api_key).not.toBe(oldKey);
      const stale = await getMe(oldKey);
      expect(stale.status).toBe(401);
      expect(stale.body).toEqual({ error: 'unauthorized' });
      expect((await getMe(out.api_key as string)).status).toBe(200);
    });

    it('set-password stores an argon2id hash and resets the key like a regeneration', async () => {
      const { id, key: oldKey } = await newAccount('--password', 'first one');
      expect((await getMe(oldKey)).status).toBe(200);
      const out = json(
        await cli(
          'account',
          'set-password',
          '--id',
          String(id),
          '--password',
          'n3w pässword',
          '--json',
        ),
      );
      expect(Object.keys(out)).toEqual(['id', 'api_key']);
      const [row] = await t.db.select().from(accounts).where(eq(accounts.id, id));
      expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$/);
      expect(await argon2.verify(row!.passwordHash!, 'n3w pässword')).toBe(true);
      expect(await argon2.verify(row!.passwordHash!, 'first one')).toBe(false);
      expect((await getMe(oldKey)).status).toBe(401);
      expect((await getMe(out.api_key as string)).status).toBe(200);
    });

    it('still succeeds when Redis cannot be reached, with one warning line on stderr', async () => {
      const { id } = await newAccount();
      const res = await runCli(['account', 'regenerate-key', '--id', String(id), '--json'], {
        ...env,
        REDIS_URL: 'redis://127.0.0.1:1',
      });
      const out = json(res);
      expect(out.id).toBe(id);
      expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(/warning: .*Redis.*ECONNREFUSED/);
    });
  },
);

describe.concurrent(
  'account set-plan, block and unblock (the authentication rules)',
  SPAWNS,
  () => {
    it('set-plan free makes the key answer 402 at once, set-plan pro restores it', async () => {
      const { id, key } = await newAccount();
      expect((await getMe(key)).status).toBe(200);
      expect(
        json(await cli('account', 'set-plan', '--id', String(id), '--plan', 'free', '--json')),
      ).toEqual({ id, plan: 'free' });
      const denied = await getMe(key);
      expect(denied.status).toBe(402);
      expect(denied.body).toEqual({ error: expect.any(String), code: 'pro_required' });
      expect(
        json(await cli('account', 'set-plan', '--id', String(id), '--plan', 'pro', '--json')),
      ).toEqual({ id, plan: 'pro' });
      expect((await getMe(key)).status).toBe(200);
    });

    it('block makes the key answer 403 at once; unblock lets the same key in again', async () => {
      const { id, key } = await newAccount();
      expect((await getMe(key)).status).toBe(200);
      expect(json(await cli('account', 'block', '--id', String(id), '--json'))).toEqual({
        id,
        blocked: true,
      });
      const blocked = await getMe(key);
      expect(blocked.status).toBe(403);
      expect(blocked.body).toHaveProperty('error');
      expect(json(await cli('account', 'unblock', '--id', String(id), '--json'))).toEqual({
        id,
        blocked: false,
      });
      expect((await getMe(key)).status).toBe(200);
    });

    it('names the unknown account id in one line, exit 1', async () => {
      for (const args of [
        ['account', 'block', '--id', '987654321'],
        ['account', 'regenerate-key', '--id', '987654321'],
        ['account', 'set-plan', '--id', '987654321', '--plan', 'pro'],
      ]) {
        expect(failure(await cli(...args, '--json'), 1)).toMatch(/no account with id 987654321/);
      }
    });
  },
);

describe.concurrent(
  'project create, project add-member, bot create (the API conventions)',
  SPAWNS,
  () => {
    it('creates a project and a bot with the contract keys', async () => {
      const owner = await newAccount();
      const project = json(
        await cli('project', 'create', '--owner', String(owner.id), '--name', 'Shop', '--json'),
      );
      expect(Object.keys(project)).toEqual(['uuid', 'owner', 'name']);
      expect(project).toMatchObject({ owner: owner.id, name: 'Shop' });
      expect(project.uuid).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      const bot = json(
        await cli(
          'bot',
          'create',
          '--project',
          project.uuid as string,
          '--name',
          'Shop bot',
          '--json',
        ),
      );
      expect(Object.keys(bot)).toEqual(['id', 'project', 'name']);
      expect(bot).toMatchObject({
        id: expect.any(Number),
        project: project.uuid,
        name: 'Shop bot',
      });
    });

    it('add-member records a team member whose key gets 403 on the project (the API conventions)', async () => {
      const owner = await newAccount();
      const member = await newAccount();
      const project = json(await cli('project', 'create', '--owner', String(owner.id), '--json'));
      const added = json(
        await cli(
          'project',
          'add-member',
          '--project',
          project.uuid as string,
          '--account',
          String(member.id),
          '--json',
        ),
      );
      expect(added).toEqual({ project: project.uuid, account: member.id });
      const rows = await t.db
        .select()
        .from(projectMembers)
        .where(eq(projectMembers.projectUuid, project.uuid as string));
      expect(rows.map((r) => r.accountId)).toEqual([member.id]);
      const [row] = await t.db
        .select()
        .from(projects)
        .where(eq(projects.uuid, project.uuid as string));
      expect(row?.ownerId).toBe(owner.id);

      // the API conventions, 4.3: the member's key does not reach the project; the owner's does
      const bot = json(await cli('bot', 'create', '--project', project.uuid as string, '--json'));
      const list = {
        name: 'Orders',
        bot_id: bot.id,
        fields: [{ name: 'Title', slug: 'title', type: 'string' }],
      };
      const asMember = await call(t.app, 'createListSchema', list, { key: member.key });
      expect(asMember.status).toBe(403);
      const asOwner = await call(t.app, 'createListSchema', list, { key: owner.key });
      expect(asOwner.status).toBe(201);
      expect(asOwner.body.data).toMatchObject({ project: project.uuid, bot_id: bot.id });
    });

    it('names an unknown owner, project or account in one line, exit 1', async () => {
      const owner = await newAccount();
      expect(failure(await cli('project', 'create', '--owner', '987654321', '--json'), 1)).toMatch(
        /no account with id 987654321/,
      );
      const missing = '00000000-0000-4000-8000-000000000000';
      expect(failure(await cli('bot', 'create', '--project', missing, '--json'), 1)).toMatch(
        /no project with uuid/,
      );
      expect(
        failure(
          await cli(
            'project',
            'add-member',
            '--project',
            missing,
            '--account',
            String(owner.id),
            '--json',
          ),
          1,
        ),
      ).toMatch(/no project with uuid/);
    });
  },
);

describe.concurrent('usage errors: exit 2 and one line, before any database work', SPAWNS, () => {
  it.each([
    [['account', 'create', '--json'], /needs --email/],
    [
      ['account', 'create', '--email', 'not-an-email', '--json'],
      /--email must be an email address/,
    ],
    [
      ['account', 'create', '--email', 'a@example.test', '--plan', 'gold', '--json'],
      /--plan must be one of pro, free/,
    ],
    [['account', 'block', '--id', 'abc', '--json'], /--id must be a positive integer/],
    [['account', 'block', '--id', '-5', '--json'], /--id/],
    [['account', 'block', '--id', '1', '--colour', 'red', '--json'], /unknown flag --colour/],
    [['account', 'block', '--id', '1', 'extra', '--json'], /unexpected argument 'extra'/],
    [['account', 'explode', '--json'], /unknown command 'account explode'/],
    [['--json'], /unknown command/],
    [[], /no command given/],
  ])('%j is refused', async (args, message) => {
    // a dead database proves nothing was opened: these fail on the flags alone
    const res = await runCli(args, { ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(failure(res, 2)).toMatch(message);
  });

  it('--help lists every contract command on stdout, exit 0', async () => {
    const res = await cli('--help');
    expect(res.code).toBe(0);
    for (const name of [
      'account create',
      'account regenerate-key',
      'account set-password',
      'account set-plan',
      'account block',
      'account unblock',
      'project create',
      'project add-member',
      'bot create',
      'contact import',
    ]) {
      expect(res.stdout).toContain(name);
    }
  });
});

describe.concurrent('environment and database failures', SPAWNS, () => {
  it('an unreachable database is one line naming the cause, exit 69', async () => {
    const res = await runCli(['account', 'block', '--id', '1', '--json'], {
      ...env,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/listkeeper',
    });
    expect(failure(res, 69)).toMatch(/cannot open the database: .*ECONNREFUSED/);
  });

  it('a bad configuration is one line naming the variable, exit 78', async () => {
    const res = await runCli(['account', 'block', '--id', '1', '--json'], {
      DATABASE_URL: t.database.url,
    });
    expect(failure(res, 78)).toMatch(/ENCRYPTION_KEY/);
  });
});
