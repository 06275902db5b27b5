import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { createFieldCipher } from '../../src/lists/encryption/cipher.js';
import type { StoredValue } from '../../src/lists/field-types/fieldType.js';
import { fieldTypeOf } from '../../src/lists/field-types/fieldTypeRegistry.js';
import { toItemRow, type StoredItemRow } from '../../src/lists/items/foundItem.js';
import { SLOT_ARRAY_TEXT } from '../../src/lists/items/itemSlots.js';
import { itemWriter } from '../../src/lists/items/listItemPresenter.js';
import {
  noteUnstoredRecords,
  recordJson,
  recordJsonText,
  writtenRecordJson,
} from '../../src/lists/items/recordJson.js';
import { assignSlots, isSlotColumn, SLOT_COLUMNS, slotSqlType } from '../../src/lists/slots.js';
import { awkwardText } from '../helpers/awkwardText.js';
import { storedField } from '../helpers/storedField.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * A page's records are written as JSON by Postgres (src/lists/items/recordJson.ts) where it
 * can be sure to write what Node's itemWriter writes, and by Node where not. For random
 * records of every type Postgres writes — slotted, in `data`, written before thin documents —
 * Postgres's text is itemWriter's byte for byte, and it leaves a record to Node (NULL) exactly
 * where a value is one of the kinds jsonInSql.ts names: a number JavaScript writes with an
 * exponent, a year before 100 or after 9999, a value only `data` holds of a slotted field.
 */
const t = testAppForFile({ redis: false, tenants: [] });
const SEED = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
const cipher = createFieldCipher(randomBytes(32).toString('base64'));

const TYPES = ['string', 'number', 'money', 'bool', 'date', 'datetime', 'contact', 'bot'];
/** Every type twice (the second in a numeric slot, or in `data` once the slots are taken), a digit slug. */
const FIELDS = assignSlots([
  ...TYPES.map((type) => storedField(type, type, { currency: 'BHD' })),
  ...TYPES.map((type) => storedField(`${type}_2`, type)),
  storedField('42', 'string'),
]) as StoredField[];

const years = (min: number, max: number) =>
  fc.integer({ min: Date.UTC(min, 0, 1), max: Date.UTC(max, 11, 31, 23, 59, 59, 999) });
const instantMs = fc.oneof(
  { arbitrary: years(1970, 2100), weight: 4 },
  { arbitrary: years(1, 9999), weight: 1 },
);
const awkward = awkwardText({ minLength: 1 });
const INPUTS: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(awkward, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 })),
  number: fc.oneof(
    { arbitrary: fc.double({ noNaN: true, min: -1e9, max: 1e9 }), weight: 4 },
    { arbitrary: fc.integer(), weight: 4 },
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, 1e21, 9.99e20, 1e-6, 9.9e-7, -1e-7, 0.1, 123456789012345680000, 5e-324),
  ),
  money: fc.oneof(
    fc.integer({ min: -1e9, max: 1e9 }).map((c) => (c / 1000).toString()),
    fc.constantFrom('999999999999.999', '-0.001', '100', '0'),
  ),
  bool: fc.boolean(),
  date: instantMs.map((ms) => new Date(ms).toISOString().slice(0, 10)),
  datetime: instantMs.map((ms) => new Date(ms).toISOString()),
  contact: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  bot: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
};
/** where a field's value is kept: its slot (as now), `data` only (as before thin documents), both */
type Place = 'slot' | 'data' | 'both';
const placeArb = fc.oneof(
  { arbitrary: fc.constant('slot' as const), weight: 30 },
  fc.constant('data' as const),
  fc.constant('both' as const),
);

/**
 * Whether Postgres leaves this value to Node (jsonInSql.ts), judged from what Node writes: a
 * number with an exponent; a day or instant before the year 100 read from its slot (`data`
 * holds the text it is rendered as).
 */
function leftToNode(field: StoredField, stored: StoredValue, inSlot: boolean): boolean {
  const rendered = fieldTypeOf(field).render(stored, field);
  if (typeof rendered === 'number') return /e/.test(String(rendered));
  if (inSlot && (field.type === 'date' || field.type === 'datetime'))
    return Number(String(rendered).slice(0, 4)) < 100;
  return false;
}

interface Case {
  values: Partial<Record<string, { input: unknown; place: Place }>>;
  createdMs: number;
  micros: number;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  values: fc.record(
    Object.fromEntries(
      FIELDS.map((f) => [f.slug, fc.record({ input: INPUTS[f.type]!, place: placeArb })]),
    ),
    { requiredKeys: [] },
  ),
  createdMs: instantMs,
  micros: fc.integer({ min: 0, max: 999 }),
});

/** The record as list_items would hold it, Postgres's JSON of it, and Node's. */
async function bothWriters(c: Case) {
  const data: Record<string, unknown> = {};
  const slots: Record<string, string> = {};
  let expectNull = false;
  for (const field of FIELDS) {
    const given = c.values[field.slug];
    if (!given) continue;
    const type = fieldTypeOf(field);
    const parsed = type.parse(given.input, field);
    if (!parsed.ok) continue;
    const slotted = isSlotColumn(field.slot);
    const place = slotted ? given.place : 'data';
    if (place !== 'data') slots[field.slot!] = type.toSlot(parsed.value);
    if (place !== 'slot') data[field.slug] = parsed.value;
    if (slotted && place === 'data') expectNull = true;
    if (leftToNode(field, parsed.value, place !== 'data')) expectNull = true;
  }
  const created = new Date(c.createdMs)
    .toISOString()
    .replace('Z', `${String(c.micros).padStart(3, '0')}Z`);
  if (c.createdMs < Date.UTC(100, 0, 1)) expectNull = true;
  const columns = SLOT_COLUMNS.map(
    (column) =>
      sql`${slots[column] ?? null}::${sql.raw(slotSqlType(column))} as ${sql.identifier(column)}`,
  );
  const [row] = await queryRows<StoredItemRow & { json: string | null }>(
    t.db,
    sql`select id, data, created_at, updated_at, ${sql.raw(SLOT_ARRAY_TEXT)} as slot_values,
          ${sql.raw(recordJsonText(FIELDS)!)} as json
        from (select 'r1'::text as id, ${JSON.stringify(data)}::jsonb as data,
          ${created}::timestamptz as created_at, ${created}::timestamptz as updated_at,
          ${sql.join(columns, sql`, `)}) as list_items`,
  );
  return {
    sqlText: row!.json,
    nodeText: itemWriter(FIELDS, cipher)(toItemRow(row!)).text,
    expectNull,
  };
}

describe("records written by Postgres (recordJson.ts) against Node's writer", () => {
  it('writes the same bytes, and leaves to Node exactly the values it names', async () => {
    let written = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const { sqlText, nodeText, expectNull } = await bothWriters(c);
        if (expectNull) expect(sqlText).toBeNull();
        else {
          expect(sqlText).toBe(nodeText);
          written++;
        }
      }),
      { seed: SEED, numRuns: 400 },
    );
    // most records are ordinary ones, which Postgres writes
    expect(written).toBeGreaterThan(50);
  });

  it('writes the awkward ones it can, and the link fields once set', async () => {
    const { sqlText, nodeText } = await bothWriters({
      values: {
        string: { input: '"\\\n\u0001\u2028😀', place: 'slot' },
        number: { input: 1e-6, place: 'slot' },
        number_2: { input: -0.000123, place: 'data' },
        money: { input: '-12.345', place: 'slot' },
        money_2: { input: '0.5', place: 'data' },
        contact: { input: 9007199254740991, place: 'slot' },
        bot_2: { input: 7, place: 'data' },
        date: { input: '0100-01-01', place: 'both' },
        datetime: { input: '9999-12-31T23:59:59.999Z', place: 'slot' },
      },
      createdMs: Date.UTC(2024, 1, 29, 12, 0, 0, 291),
      micros: 999,
    });
    expect(sqlText).toBe(nodeText);
    expect(JSON.parse(sqlText!)).toMatchObject({
      contact_id: 9007199254740991,
      created_at: '2024-02-29T12:00:00.291Z',
    });
  });

  it('leaves lists with sealed fields or files to Node', () => {
    expect(
      recordJson({
        id: 'sealed',
        fields: [...FIELDS, storedField('secret', 'string', { is_encryptable: true })],
        layout: 0,
      }),
    ).toBeUndefined();
    expect(
      recordJson({ id: 'files', fields: [...FIELDS, storedField('doc', 'file')], layout: 0 }),
    ).toBeUndefined();
    expect(recordJson({ id: 'plain', fields: FIELDS, layout: 0 })).toBeDefined();
  });

  it('reads the stored JSON alone until a page leaves a record to Node', async () => {
    const text = (query: ReturnType<typeof recordJson>) =>
      new PgDialect().sqlToQuery(query!).sql.replace(/\s+/g, ' ');
    // a fresh row of the list on each read: what is noted is kept by the list's id
    const listRow = (layout: number) => ({ id: 'noted', fields: [...FIELDS], layout });
    const list = listRow(3);
    const stored = 'case when record_layout = 3 then record_json end';
    expect(text(recordJson(list))).toBe(stored);
    expect(text(writtenRecordJson(list))).toContain('else');
    // a page whose every record came back written keeps the stored form
    noteUnstoredRecords(list, [{ id: 'a', json: '{}' }]);
    expect(text(recordJson(list))).toBe(stored);
    noteUnstoredRecords(list, [
      { id: 'a', json: '{}' },
      { id: 'b', data: {} },
    ]);
    expect(text(recordJson(listRow(3)))).toBe(text(writtenRecordJson(list)));
    // another list keeps the stored form; the writing form still answers the stored JSON
    // first: each takes it for the layout alone
    const [row] = await queryRows<{ stored: string | null; written: string | null }>(
      t.db,
      sql`select ${recordJson({ id: 'other', fields: [...FIELDS], layout: 3 })} as stored,
            ${recordJson(list)} as written
          from (select 'r1'::text as id, '{}'::jsonb as data, now() as created_at,
            now() as updated_at, 2 as record_layout, '{"old":1}'::text as record_json,
            ${sql.join(
              SLOT_COLUMNS.map(
                (column) => sql`null::${sql.raw(slotSqlType(column))} as ${sql.identifier(column)}`,
              ),
              sql`, `,
            )}) as list_items`,
    );
    expect(row!.stored).toBeNull();
    expect(JSON.parse(row!.written!)).toMatchObject({ id: 'r1' });
    // a later layout starts again from the stored form
    expect(text(recordJson(listRow(4)))).toBe('case when record_layout = 4 then record_json end');
  });
});
