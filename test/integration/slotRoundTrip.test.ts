import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { fieldTypeOf } from '../../src/lists/field-types/fieldTypeRegistry.js';
import { slotArraySql, slotsOf } from '../../src/lists/items/itemSlots.js';
import { SLOT_COLUMNS, slotSqlType, type SlotColumn } from '../../src/lists/slots.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * Thin documents (src/lists/items/itemSlots.ts) keep a slotted field's value in its slot
 * only, so reading a record rebuilds the value from the slot: FieldType.fromSlot must undo
 * toSlot for every value a type accepts, after the slot went through Postgres — read back by
 * the driver (a record, a write's answer), as Postgres's text, as the change feed's JSON and
 * as a page's one text of all slots (a page, an export). Checked here on
 * random inputs of every slotted type, through the real column types.
 */
const t = testAppForFile({ tenants: [] });

const field = (type: string, extra: Partial<StoredField> = {}): StoredField => ({
  slug: 'f',
  name: 'F',
  type,
  is_required: false,
  is_hidden: false,
  is_encryptable: false,
  ...extra,
});

/** random inputs a client may send, of every shape the type's parser takes or refuses */
const dayMs = fc.oneof(
  fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
  // the years a two-digit-year rule would move (V8 reads `0001-01-01 00:00:00+00` as 2001)
  fc.integer({ min: new Date('0001-01-01T00:00:00Z').getTime(), max: Date.UTC(99, 11, 31) }),
);
const INPUTS: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 })),
  number: fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.constantFrom(0, -0, 1e21, 5e-324, 0.1, 1.7976931348623157e308, '2.50', '1e3'),
  ),
  money: fc.oneof(
    fc.integer({ min: -1e9, max: 1e9 }).map((cents) => cents / 100),
    fc
      .tuple(fc.bigInt({ min: -(10n ** 13n), max: 10n ** 13n }), fc.integer({ min: 0, max: 99 }))
      .map(([whole, cents]) => `${whole}.${String(cents).padStart(2, '0')}`),
    fc.constantFrom('0.30', '-0.00', '100', '0.1', '999999999999999'),
  ),
  bool: fc.constantFrom(true, false, 'true', 'false', 1, 0),
  date: dayMs.map((ms) => new Date(ms).toISOString().slice(0, 10)),
  datetime: fc.oneof(
    dayMs.map((ms) => new Date(ms).toISOString()),
    dayMs.map((ms) => new Date(ms).toISOString().replace('Z', '+03:00')),
  ),
  contact: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  bot: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
};

/** the slot columns each type can be given (a contact or bot field: its own column, or n) */
const SLOTS: Record<string, SlotColumn[]> = {
  string: ['t1'],
  number: ['n1'],
  money: ['n2'],
  bool: ['n3'],
  date: ['d1'],
  datetime: ['d2'],
  contact: ['contact_id', 'n1'],
  bot: ['bot_id', 'n2'],
};

describe('fromSlot undoes toSlot through Postgres (thin documents)', () => {
  for (const [type, slots] of Object.entries(SLOTS)) {
    for (const slot of slots) {
      it(`${type} in ${slot}: the driver's value and the feed's JSON give the stored value back`, async () => {
        const f = field(type, { slot, ...(type === 'money' ? { currency: 'USD' } : {}) });
        const fieldType = fieldTypeOf(f);
        const column = sql.raw(slotSqlType(slot));
        await fc.assert(
          fc.asyncProperty(INPUTS[type]!, async (input) => {
            const parsed = fieldType.parse(input, f);
            if (!parsed.ok) return;
            const stored = parsed.value;
            const [row] = await queryRows<{ v: unknown; j: string; text: string }>(
              t.db,
              sql`select ${fieldType.toSlot(stored)}::${column} as v,
                    json_build_object('v', ${fieldType.toSlot(stored)}::${column})::text as j,
                    ${fieldType.toSlot(stored)}::${column}::text as text`,
            );
            expect(fieldType.fromSlot(row!.v)).toStrictEqual(stored);
            // Postgres's own text form, as in a row returned whole
            expect(fieldType.render(fieldType.fromSlot(row!.text), f)).toStrictEqual(
              fieldType.render(stored, f),
            );
            const fromJson = fieldType.fromSlot((JSON.parse(row!.j) as { v: unknown }).v);
            expect(fieldType.render(fromJson, f)).toStrictEqual(fieldType.render(stored, f));
            // a page's form: every slot column in one JSON text (slotArraySql)
            const columns = SLOT_COLUMNS.map((c) =>
              c === slot
                ? sql`${fieldType.toSlot(stored)}::${column} as ${sql.identifier(c)}`
                : sql`null::${sql.raw(slotSqlType(c))} as ${sql.identifier(c)}`,
            );
            const [paged] = await queryRows<Record<string, unknown>>(
              t.db,
              sql`select 1 as one${slotArraySql()} from (select ${sql.join(columns, sql`, `)}) x`,
            );
            const fromPage = fieldType.fromSlot(slotsOf(paged!)![slot]);
            expect(fieldType.render(fromPage, f)).toStrictEqual(fieldType.render(stored, f));
          }),
          { numRuns: 300 },
        );
      });
    }
  }
});
