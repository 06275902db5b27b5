import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { makeList, type FieldSpec, type TestList } from '../helpers/lists.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * The filter compiler, second half (STYLE 6): the rows it finds on real Postgres data, for
 * every type and operator of getListItems. Each case runs twice: on a list whose fields have
 * slot columns, and on one whose slots are all taken by padding fields (JSONB fallback).
 */
let contacts: number[];
const lists: Record<'slotted' | 'jsonb', { list: TestList; ids: Record<string, string> }> =
  {} as never;

const FIELDS: FieldSpec[] = [
  { slug: 's', type: 'string' },
  { slug: 'n', type: 'number' },
  { slug: 'm', type: 'money' },
  { slug: 'b', type: 'bool' },
  { slug: 'd', type: 'date' },
  { slug: 'dt', type: 'datetime' },
  { slug: 'c', type: 'contact' },
  { slug: 'f', type: 'file' },
];

const PADDING: FieldSpec[] = [
  ...['t1', 't2', 't3'].map((s) => ({ slug: `pad_${s}`, type: 'string' })),
  ...['n1', 'n2', 'n3'].map((s) => ({ slug: `pad_${s}`, type: 'number' })),
  ...['d1', 'd2'].map((s) => ({ slug: `pad_${s}`, type: 'date' })),
  { slug: 'pad_contact', type: 'contact' },
];

function records(): Record<string, Record<string, unknown>> {
  const [c1, c2] = contacts;
  return {
    r1: {
      s: 'Apple pie',
      n: 10,
      m: '10.50',
      b: true,
      d: '2024-03-10',
      dt: '2024-03-10 23:59',
      c: c1,
      f: 'https://x.example/a.pdf',
    },
    r2: {
      s: 'apple',
      n: -2.5,
      m: '0.1',
      b: false,
      d: '2024-03-11',
      dt: '2024-03-11T00:00:00Z',
      c: c2,
    },
    r3: {
      s: '100%_real',
      n: 1e21,
      m: '999999999999.99',
      b: true,
      d: '2024-03-09',
      dt: '2024-03-10T01:30:00+02:00',
    },
    r4: { s: 'Ёжик', n: 0, m: '0' },
    r5: {},
    r6: { s: '>=,odd', n: '3' },
    r7: { s: 'back\\slash' },
    r8: { s: '42' },
  };
}

const t = testAppForFile({ tenants: ['owner'] });
beforeAll(async () => {
  contacts = [await seedContact(t.db, t.owner.botId), await seedContact(t.db, t.owner.botId)];
  for (const [kind, fields] of [
    ['slotted', FIELDS],
    ['jsonb', [...PADDING, ...FIELDS]],
  ] as const) {
    const list = await makeList(t.db, t.owner, fields);
    const ids: Record<string, string> = {};
    for (const [key, data] of Object.entries(records())) {
      const res = await call(
        t.app,
        'addListItem',
        { schema_id: list.id, data },
        { key: t.owner.apiKey },
      );
      expect(res.status).toBe(201);
      ids[key] = res.body.data.id;
    }
    lists[kind] = { list, ids };
  }
  expect(lists.jsonb.list.fields.find((f) => f.slug === 's')!.slot).toBeUndefined();
  expect(lists.slotted.list.fields.find((f) => f.slug === 's')!.slot).toBe('t1');
});

type Case = [string, Record<string, unknown>, string[]];

const CASES: Case[] = [
  ['string equality is exact and case-sensitive', { s: 'apple' }, ['r2']],
  ['like without % matches the whole value, case-insensitively', { s: 'like,APPLE' }, ['r2']],
  ['like with a trailing %', { s: 'like,APPLE%' }, ['r1', 'r2']],
  ['like with a leading %', { s: 'like,%pie' }, ['r1']],
  ['_ matches exactly one character', { s: 'like,a_ple' }, ['r2']],
  ['% in a stored value is an ordinary character to match', { s: 'like,100%' }, ['r3']],
  ['a backslash in a pattern is literal', { s: 'like,%\\%' }, ['r7']],
  ['like folds non-ASCII case', { s: 'like,ёЖ%' }, ['r4']],
  [
    'not like never matches records without a value',
    { s: 'not like,%apple%' },
    ['r3', 'r4', 'r6', 'r7', 'r8'],
  ],
  [
    '!= never matches records without a value',
    { s: '!=,apple' },
    ['r1', 'r3', 'r4', 'r6', 'r7', 'r8'],
  ],
  ['<> is the same as !=', { s: '<>,apple' }, ['r1', 'r3', 'r4', 'r6', 'r7', 'r8']],
  ['=, escapes a value that starts with an operator and a comma', { s: '=,>=,odd' }, ['r6']],
  ['a recognised operator compares strings as text', { s: '>=,odd' }, ['r4']],
  ['text before the first comma that is no operator is part of the value', { s: 'odd,>=' }, []],
  ['a JSON number is compared as text on a string field', { s: 42 }, ['r8']],
  ['numbers compare numerically', { n: '>,0' }, ['r1', 'r3', 'r6']],
  ['numbers take numeric strings with signs and fractions', { n: '<=,-2.5' }, ['r2']],
  ['numbers take exponent notation', { n: '=,1e21' }, ['r3']],
  ['numbers equal to a plain JSON number', { n: 1000000000000000000000 }, ['r3']],
  ['number != skips records without a value', { n: '!=,10' }, ['r2', 'r3', 'r4', 'r6']],
  ['money compares exactly in main units', { m: '<,10.5' }, ['r2', 'r4']],
  ['money equality ignores trailing zeros', { m: '=,10.50' }, ['r1']],
  ['money at 15 digits stays exact', { m: '>=,999999999999.99' }, ['r3']],
  ['money from a JSON number', { m: 0.1 }, ['r2']],
  ['bool true', { b: true }, ['r1', 'r3']],
  ['bool "false"', { b: 'false' }, ['r2']],
  ['bool != 1', { b: '!=,1' }, ['r2']],
  ['a date value finds records of that UTC day', { d: '2024-03-10' }, ['r1']],
  ['date <= includes the whole day', { d: '<=,2024-03-10' }, ['r1', 'r3']],
  ['date < excludes the day', { d: '<,2024-03-10' }, ['r3']],
  ['date > starts the next day', { d: '>,2024-03-10' }, ['r2']],
  ['date >= includes the day', { d: '>=,2024-03-10' }, ['r1', 'r2']],
  ['date != excludes only that day', { d: '!=,2024-03-10' }, ['r2', 'r3']],
  ['datetime without a zone is UTC', { dt: '2024-03-10 23:59' }, ['r1']],
  ['datetime ranges cross the UTC day edge', { dt: '<,2024-03-11 00:00' }, ['r1', 'r3']],
  ['datetime with an offset is converted to UTC', { dt: '>=,2024-03-11T02:00:00+02:00' }, ['r2']],
  ['datetime equality with an ISO Z value', { dt: '2024-03-09T23:30:00Z' }, ['r3']],
  ['contact equality', { c: 'CONTACT1' }, ['r1']],
  ['contact comparison', { c: '>,0' }, ['r1', 'r2']],
  ['conditions on several fields are ANDed', { s: 'like,%a%', n: '>,0' }, ['r1', 'r3']],
  [
    'unknown slugs, file fields and null values are skipped',
    { nope: 'x', f: 'x', s: null },
    ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'],
  ],
  [
    'an empty string value is skipped like null',
    { n: '' },
    ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'],
  ],
];

async function find(kind: 'slotted' | 'jsonb', filters: Record<string, unknown>) {
  const { list, ids } = lists[kind];
  const resolved = Object.fromEntries(
    Object.entries(filters).map(([k, v]) => [k, v === 'CONTACT1' ? String(contacts[0]) : v]),
  );
  const res = await call(
    t.app,
    'getListItems',
    { schema_id: list.id, filters: resolved, limit: 1000 },
    { key: t.owner.apiKey },
  );
  expect(res.status).toBe(200);
  const byId = Object.fromEntries(Object.entries(ids).map(([k, id]) => [id, k]));
  const found = (res.body.data as { id: string }[]).map((r) => byId[r.id]).sort();
  expect(res.body.meta.total).toBe(found.length);
  return found;
}

describe.each(['slotted', 'jsonb'] as const)(
  'filters on real rows, %s fields (getListItems)',
  (kind) => {
    it.each(CASES)('%s', async (_name, filters, expected) => {
      expect(await find(kind, filters)).toEqual([...expected].sort());
    });
  },
);
