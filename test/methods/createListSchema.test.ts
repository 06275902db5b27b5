import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listSchemas, projects } from '../../src/infra/db/schema/index.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { createBot, createProject, makeInvitedProject, makeTenant } from '../helpers/factories.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'other'] });

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const FIELDS = [
  { name: 'Title', slug: 'title', type: 'string' },
  { name: 'Price', slug: 'price', type: 'money' },
  { name: 'Paid', slug: 'paid', type: 'bool', is_required: false, is_hidden: true },
];

const create = (
  params: Record<string, unknown>,
  via: 'query' | 'json' | 'form' = 'json',
  key = t.owner.apiKey,
) => call(t.app, 'createListSchema', params, { key, via });

describe('createListSchema succeeds (createListSchema, the list schema shape, the field shape)', () => {
  it.each(TRANSPORTS)(
    'creates a list in a project with every default applied via %s',
    async (via) => {
      const res = await create(
        { name: 'Orders', project_uuid: t.owner.projectUuid, fields: FIELDS },
        via,
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        data: {
          id: expect.any(String),
          fields: {
            title: {
              name: 'Title',
              type: 'string',
              is_required: true,
              is_hidden: false,
              is_encryptable: false,
            },
            price: {
              name: 'Price',
              type: 'money',
              currency: 'USD',
              is_required: true,
              is_hidden: false,
              is_encryptable: false,
            },
            paid: {
              name: 'Paid',
              type: 'bool',
              is_required: false,
              is_hidden: true,
              is_encryptable: false,
            },
          },
          name: 'Orders',
          bot_id: null,
          project: t.owner.projectUuid,
          is_menu: false,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
      });
    },
  );

  it('puts the list in the bot’s project and marks it created in the bot (createListSchema)', async () => {
    const res = await create({ name: 'Bot list', bot_id: t.owner.botId, fields: FIELDS });
    expect(res.status).toBe(201);
    expect(res.body.data.bot_id).toBe(t.owner.botId);
    expect(res.body.data.project).toBe(t.owner.projectUuid);
  });

  it.each(TRANSPORTS)(
    'uses bot_id when project_uuid is also sent, even an invalid one, via %s',
    async (via) => {
      const res = await create(
        { name: 'Both', bot_id: String(t.owner.botId), project_uuid: 'not-a-uuid', fields: FIELDS },
        via,
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ bot_id: t.owner.botId, project: t.owner.projectUuid });
    },
  );

  it('uses bot_id over another of the caller’s projects sent as project_uuid', async () => {
    const project = await createProject(t.db, t.owner.accountId, 'Second');
    const res = await create({
      name: 'X',
      bot_id: t.owner.botId,
      project_uuid: project.uuid,
      fields: FIELDS,
    });
    expect(res.body.data.project).toBe(t.owner.projectUuid);
  });

  it('keeps fields in the order sent, all-digit slugs included (createListSchema)', async () => {
    const slugs = ['10', 'b', '2', 'a', '1'];
    const res = await create({
      name: 'Ordered',
      project_uuid: t.owner.projectUuid,
      fields: slugs.map((slug) => ({ name: `F${slug}`, slug, type: 'string' })),
    });
    expect(res.status).toBe(201);
    const text = res.raw.body;
    const positions = slugs.map((s) => text.indexOf(`"${s}":{"name":"F${s}"`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);

    const read = await call(
      t.app,
      'getListSchema',
      { schema_id: res.body.data.id },
      { key: t.owner.apiKey },
    );
    const again = slugs.map((s) => read.raw.body.indexOf(`"${s}":{"name":"F${s}"`));
    expect([...again].sort((x, y) => x - y)).toEqual(again);
  });

  it.each([
    ['true', true],
    ['false', false],
    ['1', true],
    ['0', false],
    [1, true],
    [0, false],
    [true, true],
    [false, false],
  ])('accepts %j as the boolean %s (createListSchema booleans)', async (text, value) => {
    const res = await create({
      name: 'Flags',
      project_uuid: t.owner.projectUuid,
      is_menu: text,
      fields: [
        {
          name: 'A',
          slug: 'a',
          type: 'string',
          is_required: text,
          is_hidden: text,
          is_encryptable: text,
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.is_menu).toBe(value);
    expect(res.body.data.fields.a).toMatchObject({
      is_required: value,
      is_hidden: value,
      is_encryptable: value,
    });
  });

  it.each(['query', 'form'] as const)('reads boolean text forms sent via %s', async (via) => {
    const res = await create(
      {
        name: 'Flags',
        project_uuid: t.owner.projectUuid,
        is_menu: '1',
        fields: [{ name: 'A', slug: 'a', type: 'string', is_required: '0', is_hidden: 'true' }],
      },
      via,
    );
    expect(res.status).toBe(201);
    expect(res.body.data.is_menu).toBe(true);
    expect(res.body.data.fields.a).toMatchObject({ is_required: false, is_hidden: true });
  });

  it('stores the currency of money fields and ignores one sent with another type', async () => {
    const res = await create({
      name: 'Money',
      project_uuid: t.owner.projectUuid,
      fields: [
        { name: 'Euro', slug: 'eur', type: 'money', currency: 'EUR' },
        { name: 'Text', slug: 'text', type: 'string', currency: 'nonsense' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.fields.eur.currency).toBe('EUR');
    expect(res.body.data.fields.text).not.toHaveProperty('currency');
  });

  it('never shows the internal storage slot, and stores one per indexable field', async () => {
    const res = await create({ name: 'Slots', project_uuid: t.owner.projectUuid, fields: FIELDS });
    expect(JSON.stringify(res.body)).not.toContain('slot');
    const [row] = await t.db.select().from(listSchemas).where(eq(listSchemas.id, res.body.data.id));
    expect(row!.fields.map((f) => f.slot)).toEqual(['t1', 'n1', 'n2']);
    expect(row!.ownerId).toBe(t.owner.accountId);
  });

  it('accepts 30 fields and names of 255 characters (the limits)', async () => {
    const res = await create({
      name: 'n'.repeat(255),
      project_uuid: t.owner.projectUuid,
      fields: Array.from({ length: 30 }, (_, i) => ({
        name: 'x'.repeat(255),
        slug: `${'s'.repeat(250)}_${String(i).padStart(3, '0')}`,
        type: 'string',
      })),
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data.fields)).toHaveLength(30);
  });

  it('counts the list in its project', async () => {
    const tenant = await makeTenant(t.db);
    await create(
      { name: 'A', project_uuid: tenant.projectUuid, fields: FIELDS },
      'json',
      tenant.apiKey,
    );
    await create({ name: 'B', bot_id: tenant.botId, fields: FIELDS }, 'json', tenant.apiKey);
    const [p] = await t.db.select().from(projects).where(eq(projects.uuid, tenant.projectUuid));
    expect(p!.listCount).toBe(2);
  });
});

describe('createListSchema refuses (createListSchema, the error rules)', () => {
  const base = () => ({ name: 'L', project_uuid: t.owner.projectUuid, fields: FIELDS });

  it.each(TRANSPORTS)(
    'asks for bot_id and project_uuid when neither is sent via %s',
    async (via) => {
      const res = await create({ name: 'L', fields: FIELDS }, via);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['bot_id', 'project_uuid']);
      expect(res.body.message).toEqual(expect.any(String));
    },
  );

  it.each([
    ['a malformed project_uuid', { project_uuid: 'abc' }, 'project_uuid'],
    [
      'an unknown project_uuid',
      { project_uuid: '00000000-0000-4000-8000-000000000000' },
      'project_uuid',
    ],
    ['an unknown bot_id', { bot_id: 987654321, project_uuid: undefined }, 'bot_id'],
    ['a non-integer bot_id', { bot_id: 'x1', project_uuid: undefined }, 'bot_id'],
  ])('answers 422 for %s', async (_label, patch, key) => {
    const res = await create({ ...base(), ...patch });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ [key]: [expect.any(String)] });
  });

  it.each(TRANSPORTS)(
    'reports a repeated slug as fields.N.slug of the repeat via %s',
    async (via) => {
      const res = await create(
        {
          ...base(),
          fields: [
            { name: 'A', slug: 'a', type: 'string' },
            { name: 'B', slug: 'b', type: 'string' },
            { name: 'A again', slug: 'a', type: 'number' },
          ],
        },
        via,
      );
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['fields.2.slug']);
    },
  );

  it.each([
    'id',
    'created_at',
    'updated_at',
    'contact_id',
    'bot_id',
    '__proto__',
    'constructor',
    'prototype',
  ])(
    'refuses the reserved slug %s under fields.N.slug (docs/decisions.md: reserved slugs)',
    async (slug) => {
      const res = await create({
        ...base(),
        fields: [
          { name: 'ok', slug: 'ok', type: 'string' },
          { name: 'bad', slug, type: 'string' },
        ],
      });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['fields.1.slug']);
    },
  );

  it.each([
    ['   ', 'The name field: must not be blank'],
    [null, 'The name field: must not be blank'],
    [undefined, 'The name field is required.'],
    [5, 'The name field: must be a string'],
  ])('says what is wrong with the name %j', async (name, message) => {
    const res = await create({ ...base(), name });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ name: [message] });
  });

  it('allows a reserved name in another case, since slugs are case-sensitive', async () => {
    const res = await create({ ...base(), fields: [{ name: 'Id', slug: 'ID', type: 'string' }] });
    expect(res.status).toBe(201);
  });

  it.each(TRANSPORTS)('refuses an unknown currency under fields.N.currency via %s', async (via) => {
    const res = await create(
      { ...base(), fields: [FIELDS[0], { name: 'M', slug: 'm', type: 'money', currency: 'XYZ' }] },
      via,
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['fields.1.currency']);
  });

  it.each([
    ['name too long', { name: 'n'.repeat(256) }, ['name']],
    ['name missing', { name: undefined }, ['name']],
    ['name blank', { name: '   ' }, ['name']],
    ['name with a NUL character', { name: 'a\u0000b' }, ['name']],
    ['no fields', { fields: [] }, ['fields']],
    ['fields missing', { fields: undefined }, ['fields']],
    // one value alone is a list of one: a text is then a field definition that is not an object
    ['fields not an array', { fields: 'title' }, ['fields.0']],
    [
      '31 fields',
      {
        fields: Array.from({ length: 31 }, (_, i) => ({
          name: 'F',
          slug: `f${i}`,
          type: 'string',
        })),
      },
      ['fields'],
    ],
    [
      'field name too long',
      { fields: [{ name: 'x'.repeat(256), slug: 'a', type: 'string' }] },
      ['fields.0.name'],
    ],
    [
      'slug too long',
      { fields: [{ name: 'A', slug: 's'.repeat(256), type: 'string' }] },
      ['fields.0.slug'],
    ],
    [
      'slug with a space',
      { fields: [{ name: 'A', slug: 'a b', type: 'string' }] },
      ['fields.0.slug'],
    ],
    [
      'slug with a dot',
      { fields: [{ name: 'A', slug: 'a.b', type: 'string' }] },
      ['fields.0.slug'],
    ],
    ['unknown type', { fields: [{ name: 'A', slug: 'a', type: 'text' }] }, ['fields.0.type']],
    [
      'fields that are not objects',
      { fields: [null, 'x', 5] },
      ['fields.0', 'fields.1', 'fields.2'],
    ],
    ['missing type', { fields: [{ name: 'A', slug: 'a' }] }, ['fields.0.type']],
    [
      'bad boolean',
      { fields: [{ name: 'A', slug: 'a', type: 'string', is_hidden: 'yes' }] },
      ['fields.0.is_hidden'],
    ],
    ['bad is_menu', { is_menu: 'maybe' }, ['is_menu']],
  ])('answers 422 for %s', async (_label, patch, keys) => {
    const res = await create({ ...base(), ...patch });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(keys);
  });

  it('lists every failing field in one 422, the unknown bot included (the error rules)', async () => {
    const res = await create({
      name: '',
      bot_id: 987654321,
      fields: [
        { name: 'A', slug: 'a', type: 'string' },
        { name: '', slug: 'a', type: 'money', currency: 'usd' },
        { name: 'C', slug: 'id', type: 'nope' },
      ],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'bot_id',
      'fields.1.currency',
      'fields.1.name',
      'fields.1.slug',
      'fields.2.slug',
      'fields.2.type',
      'name',
    ]);
    expect(res.body.message).toMatch(/and \d+ more error/);
  });

  it('answers 403 with message and error for another account’s project', async () => {
    const res = await create({ ...base(), project_uuid: t.other.projectUuid });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
  });

  it('answers 403 for another account’s bot', async () => {
    const res = await create({ name: 'L', bot_id: t.other.botId, fields: FIELDS });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
  });

  it('answers 403 for a project and a bot the caller is only a team member of (the API conventions)', async () => {
    const shared = await makeInvitedProject(t.db, t.other, t.owner);
    const byProject = await create({ ...base(), project_uuid: shared.projectUuid });
    const byBot = await create({ name: 'L', bot_id: shared.botId, fields: FIELDS });
    expect(byProject.status).toBe(403);
    expect(byBot.status).toBe(403);
    const extraBot = await createBot(t.db, shared.projectUuid, 'Another');
    expect((await create({ name: 'L', bot_id: extraBot.id, fields: FIELDS })).status).toBe(403);
    const [p] = await t.db.select().from(projects).where(eq(projects.uuid, shared.projectUuid));
    expect(p!.listCount).toBe(0);
  });

  it('creates nothing when it refuses', async () => {
    const tenant = await makeTenant(t.db);
    await create(
      { name: 'L', project_uuid: tenant.projectUuid, fields: [] },
      'json',
      tenant.apiKey,
    );
    const rows = await t.db
      .select()
      .from(listSchemas)
      .where(eq(listSchemas.ownerId, tenant.accountId));
    expect(rows).toHaveLength(0);
  });
});
