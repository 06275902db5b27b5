import fc from 'fast-check';
import { uuidv7 } from 'uuidv7';
import { extremeValue, hostileKey, hostileString, hostileValue, ownObject } from './hostile.js';
import type { FuzzRequest, KeyChoice } from './request.js';

/** Real ids the fuzzer mixes in so that requests reach past validation into the database. */
export interface FuzzIds {
  /** the caller's lists, all with the fields of MAIN_FIELDS */
  ownLists: string[];
  foreignList: string;
  invitedList: string;
  deletedList: string;
  ownRecords: string[];
  foreignRecord: string;
  /** one deleted record, one in a deleted list */
  deletedRecords: string[];
  ownBots: number[];
  foreignBot: number;
  invitedBot: number;
  ownProject: string;
  foreignProject: string;
  invitedProject: string;
  ownContacts: number[];
  foreignContact: number;
}

/** The fields of every list the fuzzer writes to: each type once, one encrypted. */
export const MAIN_FIELDS = [
  { slug: 'title', type: 'string' },
  { slug: 'n', type: 'number' },
  { slug: 'price', type: 'money' },
  { slug: 'ok', type: 'bool' },
  { slug: 'day', type: 'date' },
  { slug: 'at', type: 'datetime' },
  { slug: 'doc', type: 'file' },
  { slug: 'pic', type: 'image' },
  { slug: 'who', type: 'contact' },
  { slug: 'via', type: 'bot' },
  { slug: 'secret', type: 'string', is_encryptable: true },
] as const;

const TYPES = [
  'string',
  'number',
  'bool',
  'date',
  'datetime',
  'money',
  'file',
  'image',
  'contact',
  'bot',
];
const OPERATORS = ['=', '!=', '<>', '<', '<=', '>', '>=', 'like', 'not like', 'between', ''];

/** Usually `usual`, sometimes `edge` (4 : 1). */
const mostly = (usual: fc.Arbitrary<unknown>, edge: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 4, arbitrary: usual }, { weight: 1, arbitrary: edge });

const asTextToo = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(
    arb,
    arb.map((v) => String(v)),
  );

function goodValue(type: string, ids: FuzzIds): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return mostly(fc.constantFrom('hello', 'Ёжик', '100%'), fc.string({ maxLength: 20 }));
    case 'number':
      return asTextToo(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })));
    case 'money':
      return fc.constantFrom('10.50', 0, -3, '999999999999.99', 1e15);
    case 'bool':
      return fc.constantFrom(true, false, 'true', 'false', 1, 0, '1', '0');
    case 'date':
      return fc.constantFrom('2024-02-29', '1999-12-31', '0001-01-01', '9999-12-31');
    case 'datetime':
      return fc.constantFrom(
        '2024-03-01T10:00:00Z',
        '2024-02-29 23:59',
        '2024-03-01T01:00:00+02:00',
      );
    case 'file':
    case 'image':
      return fc.constantFrom('https://example.com/a.pdf', {
        url: 'https://example.com/i.png',
        name: 'i.png',
        type: 'image',
        storage: 'url',
      });
    case 'contact':
      return mostly(
        fc.constantFrom(...ids.ownContacts),
        fc.constantFrom(ids.foreignContact, 987654321),
      );
    case 'bot':
      return mostly(
        fc.constantFrom(...ids.ownBots),
        fc.constantFrom(ids.foreignBot, ids.invitedBot, 987654321),
      );
    default:
      return hostileValue;
  }
}

/** A plausible value, or often a hostile one. */
const mix = (good: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: hostileValue });

/** A plausible value, now and then a hostile one (inside objects and arrays). */
const seldom = (good: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 19, arbitrary: good }, { weight: 1, arbitrary: hostileValue });

function dataArb(ids: FuzzIds) {
  return fc
    .tuple(
      fc
        .subarray([...MAIN_FIELDS])
        .chain((fields) =>
          fc.tuple(
            ...fields.map((f) => seldom(goodValue(f.type, ids)).map((v) => [f.slug, v] as const)),
          ),
        ),
      rarely(fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 3 }), 5),
    )
    .map(([known, extra]) => ownObject([...known, ...(extra ?? [])]));
}

function filtersArb(ids: FuzzIds) {
  const condition = fc.constantFrom(...MAIN_FIELDS).chain((f) =>
    fc.tuple(
      fc.constant(f.slug),
      fc.oneof(
        { weight: 3, arbitrary: goodValue(f.type, ids) },
        {
          weight: 4,
          arbitrary: fc
            .tuple(fc.constantFrom(...OPERATORS), mostly(goodValue(f.type, ids), hostileString))
            .map(([op, v]) => `${op},${typeof v === 'object' ? JSON.stringify(v) : String(v)}`),
        },
        { weight: 1, arbitrary: hostileValue },
      ),
    ),
  );
  return fc
    .tuple(
      fc.array(condition, { maxLength: 3 }),
      rarely(fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 2 }), 5),
    )
    .map(([known, extra]) => ownObject([...known, ...(extra ?? [])]));
}

const slugArb = mostly(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
  fc.constantFrom(...MAIN_FIELDS.map((f) => f.slug), 'id', 'created_at', '__proto__', 'a-b_c'),
);

const goodFlag = fc.constantFrom(true, false, 'true', 'false', '1', '0', 1, 0);
const flagArb = mostly(
  fc.constantFrom(true, false, 'true', 'false', '1', '0', 1, 0),
  fc.constant('yes'),
);

function fieldDefArb() {
  return fc.record(
    {
      name: seldom(fc.constantFrom('Name', 'Имя')),
      slug: seldom(slugArb),
      type: seldom(fc.constantFrom(...TYPES)),
      currency: seldom(fc.constantFrom('USD', 'EUR', 'GBP')),
      is_required: seldom(goodFlag),
      is_hidden: seldom(goodFlag),
      is_encryptable: seldom(goodFlag),
    },
    { requiredKeys: ['name', 'slug', 'type'] },
  );
}

const pageArb = asTextToo(
  mostly(fc.integer({ min: 1, max: 30 }), fc.integer({ min: -3, max: 3_000 })),
);
const limitArb = asTextToo(
  mostly(fc.integer({ min: 1, max: 1_000 }), fc.constantFrom(0, 1_001, -1)),
);
const unixArb = asTextToo(
  mostly(fc.integer({ min: 0, max: 2 ** 31 }), fc.constantFrom(-1, 253_402_300_800)),
);

/** An Idempotency-Key as a parameter: mostly a fresh valid one, sometimes reused or malformed. */
const idempotencyKeyArb = mostly(
  fc.uuid(),
  fc.constantFrom('reused-key', '', 'with space', 'é', 'k'.repeat(256)),
);

/** Each method's parameters, each a plausible value or a hostile one, any of them left out. */
function knownParams(method: string, ids: FuzzIds): Record<string, fc.Arbitrary<unknown>> {
  const schemaId = mostly(
    fc.constantFrom(...ids.ownLists),
    fc.constantFrom(ids.foreignList, ids.invitedList, ids.deletedList, uuidv7(), 'not-a-uuid'),
  );
  const itemId = mostly(
    fc.constantFrom(...ids.ownRecords),
    fc.constantFrom(ids.foreignRecord, ...ids.deletedRecords, uuidv7(), '12345'),
  );
  const botId = asTextToo(
    mostly(
      fc.constantFrom(...ids.ownBots),
      fc.constantFrom(ids.foreignBot, ids.invitedBot, 999_999_999, 0),
    ),
  );
  switch (method) {
    case 'getMe':
      return {};
    case 'getListSchemas':
      return { page: pageArb };
    case 'getListSchema':
    case 'deleteListSchema':
      return { schema_id: schemaId };
    case 'createListSchema':
      return {
        name: mostly(fc.constant('Fuzzed list'), fc.string({ maxLength: 30 })),
        project_uuid: mostly(
          fc.constant(ids.ownProject),
          fc.constantFrom(ids.foreignProject, ids.invitedProject, uuidv7()),
        ),
        bot_id: botId,
        fields: mostly(
          fc.array(fieldDefArb(), { minLength: 1, maxLength: 5 }),
          fc.array(fieldDefArb(), { maxLength: 32 }),
        ),
        is_menu: flagArb,
      };
    case 'addListSchemaField':
      return { schema_id: schemaId, field: fieldDefArb() };
    case 'deleteListSchemaField':
      return { schema_id: schemaId, slug: slugArb };
    case 'getListItems':
      return {
        schema_id: schemaId,
        limit: limitArb,
        page: pageArb,
        order_by: fc
          .tuple(
            mostly(
              fc.constantFrom('title', 'n', 'price', 'ok', 'day', 'at', 'who', 'via', 'created_at'),
              fc.constantFrom('secret', 'doc', 'id', 'nope'),
            ),
            mostly(fc.constantFrom('asc', 'desc', ''), fc.constantFrom('DESC', 'up')),
          )
          .map(([s, d]) => (d ? `${s},${d}` : s)),
        filters: filtersArb(ids),
        contact_id: asTextToo(
          mostly(fc.constantFrom(...ids.ownContacts), fc.constantFrom(ids.foreignContact, 1)),
        ),
        bot_id: botId,
      };
    case 'addListItem':
      return { schema_id: schemaId, data: dataArb(ids) };
    case 'updateListItem':
      return { item_id: itemId, data: dataArb(ids) };
    case 'deleteListItem':
      return { item_id: itemId };
    case 'getContacts':
      return {
        bot_id: botId,
        count: pageArb,
        page: pageArb,
        offset: pageArb,
        limit: limitArb,
        date_from: unixArb,
        date_to: unixArb,
        with: fc.constantFrom('tags', 'variables', ''),
      };
    case 'getNumberOfContacts':
      return { bot_id: botId, date_from: unixArb, date_to: unixArb };
    case 'addListItems':
      return {
        schema_id: schemaId,
        items: mostly(
          fc.array(dataArb(ids), { minLength: 1, maxLength: 4 }),
          fc.array(dataArb(ids)),
        ),
        atomic: flagArb,
        idempotency_key: idempotencyKeyArb,
      };
    case 'updateListItems':
      return {
        schema_id: schemaId,
        items: fc.array(fc.record({ item_id: itemId, data: dataArb(ids) }), { maxLength: 4 }),
        atomic: flagArb,
        idempotency_key: idempotencyKeyArb,
      };
    case 'deleteListItems':
      return {
        schema_id: schemaId,
        item_ids: fc.array(itemId, { maxLength: 4 }),
        atomic: flagArb,
        idempotency_key: idempotencyKeyArb,
      };
    case 'createOrUpdateContacts': {
      const contact = { ...knownParams('createOrUpdateContact', ids) };
      delete contact.bot_id;
      return {
        bot_id: botId,
        contacts: fc.array(fc.record(contact, { requiredKeys: [] }), { maxLength: 4 }),
        atomic: flagArb,
        idempotency_key: idempotencyKeyArb,
      };
    }
    case 'createOrUpdateContact': {
      const messengerId = asTextToo(
        mostly(fc.integer({ min: 1, max: 2 ** 40 }), fc.constantFrom(2 ** 53, 0, -5)),
      );
      return {
        bot_id: botId,
        messenger: mostly(
          fc.constantFrom('telegram', 'max', 'viber', 'vk'),
          fc.constantFrom('web', 'TELEGRAM'),
        ),
        name: mostly(fc.constant('Fuzzed'), fc.string({ maxLength: 20 })),
        telegram_id: messengerId,
        telegram_username: fc.constantFrom('@someone', 'someone', ''),
        max_id: messengerId,
        max_user_id: messengerId,
        max_username: fc.string({ maxLength: 10 }),
        vk_id: messengerId,
        vk_user_id: messengerId,
        viber_id: fc.string({ maxLength: 20 }),
        phone: mostly(
          fc.constantFrom('+12345678901', '+447700900123'),
          fc.constantFrom('+1', '12345678901', '+' + '9'.repeat(20), '+1 234 567 890'),
        ),
        email: mostly(fc.constantFrom('a@example.com'), fc.constantFrom('not-an-email', 'a@b', '')),
        address: fc.string({ maxLength: 30 }),
        tags: mostly(
          fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }),
          fc.array(fc.string({ maxLength: 300 }), { maxLength: 105 }),
        ),
      };
    }
    default:
      throw new Error(`no parameters known for ${method}`);
  }
}

const keyArb: fc.Arbitrary<KeyChoice> = fc.oneof(
  { weight: 30, arbitrary: fc.constant('owner' as const) },
  { weight: 3, arbitrary: fc.constant('owner-token' as const) },
  { weight: 3, arbitrary: fc.constant('other' as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'free' as const,
      'blocked' as const,
      'wrong' as const,
      'none' as const,
    ),
  },
  { weight: 1, arbitrary: hostileValue.map((token) => ({ token })) },
);

const rawBodies = fc.constantFrom(
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2,3]',
  'null',
  '"text"',
  '42',
  'true',
  '{"a":1}{"b":2}',
  '\u0000',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
);

const rawSuffixes = fc.oneof(
  fc.constantFrom(
    '__proto__[polluted]=1',
    'constructor[prototype][polluted]=1',
    '__proto__.polluted=1',
    'a[b][c][d][e][f][g][h]=1',
    'a[]=1&a[]=2&a[300]=3',
    'a=%',
    'a=%E0%A4%A',
    'a=%00',
    '%5B%5D=1',
    '=1&&&=',
  ),
  fc.constant(null).map(() => Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&')),
);

/** `arb` once in `n` draws, else undefined. */
const rarely = <T>(arb: fc.Arbitrary<T>, n: number) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** Parameters each method needs to do anything: present in every "clean" request. */
const REQUIRED: Record<string, string[]> = {
  getListSchema: ['schema_id'],
  deleteListSchema: ['schema_id'],
  createListSchema: ['name', 'fields'],
  addListSchemaField: ['schema_id', 'field'],
  deleteListSchemaField: ['schema_id', 'slug'],
  getListItems: ['schema_id'],
  addListItem: ['schema_id', 'data'],
  updateListItem: ['item_id', 'data'],
  deleteListItem: ['item_id'],
  createOrUpdateContact: ['bot_id', 'messenger', 'name'],
  addListItems: ['schema_id', 'items'],
  updateListItems: ['schema_id', 'items'],
  deleteListItems: ['schema_id', 'item_ids'],
  createOrUpdateContacts: ['bot_id', 'contacts'],
};

/**
 * The parameters of one request, in three degrees of hostility so that deep code paths are
 * reached too: clean (plausible values only), one hostile value among plausible ones, or
 * hostile anywhere (extra keys included); and once in 25 requests one extreme value.
 */
function paramsArb(method: string, ids: FuzzIds) {
  const known = knownParams(method, ids);
  const names = Object.keys(known);
  const requiredKeys = (REQUIRED[method] ?? []) as never[];
  const clean = fc.record(known, { requiredKeys });
  const entriesOf = (o: object) => Object.entries(o) as [string, unknown][];
  const oneHostile = fc
    .tuple(clean, fc.constantFrom(...names, 'extra'), hostileValue)
    .map(([p, k, v]) => [...entriesOf(p), [k, v] as [string, unknown]]);
  const anyHostile = fc
    .tuple(
      fc.record(Object.fromEntries(names.map((k) => [k, mix(known[k]!)])), { requiredKeys: [] }),
      fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 3 }),
    )
    .map(([p, extra]) => [...entriesOf(p), ...extra]);
  const base =
    names.length === 0 ? anyHostile : fc.oneof(clean.map(entriesOf), oneHostile, anyHostile);
  const extreme = fc.tuple(fc.constantFrom(...names, 'extra'), extremeValue);
  return fc
    .tuple(base, rarely(extreme, 25))
    .map(([entries, ext]) => ownObject(ext ? [...entries, ext] : entries));
}

/** One fuzzed request to `method`. */
export function requestArb(method: string, ids: FuzzIds): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.constant(method),
      via: fc.constantFrom('query' as const, 'json' as const, 'form' as const),
      key: keyArb,
      params: paramsArb(method, ids),
      rawBody: rarely(rawBodies, 40),
      rawSuffix: rarely(rawSuffixes, 30),
      oversize: rarely(fc.constant(true), 100).map((v) => v ?? false),
    })
    .map((r) => normalise(r));
}

/** Drops combinations a transport cannot carry (a raw JSON body on GET, oversize on GET). */
function normalise(r: FuzzRequest): FuzzRequest {
  const out: FuzzRequest = { ...r };
  if (out.via !== 'json') delete out.rawBody;
  if (out.via === 'json') delete out.rawSuffix;
  if (out.via === 'query') out.oversize = false;
  if (out.rawBody === undefined) delete out.rawBody;
  if (out.rawSuffix === undefined) delete out.rawSuffix;
  return out;
}
