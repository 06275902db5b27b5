import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { createFieldCipher } from '../../src/lists/encryption/cipher.js';
import type { StoredValue } from '../../src/lists/field-types/fieldType.js';
import { fieldTypeOf, FIELD_TYPES } from '../../src/lists/field-types/fieldTypeRegistry.js';
import type { ItemRow } from '../../src/lists/items/foundItem.js';
import type { SlotValues } from '../../src/lists/items/itemSlots.js';
import { itemWriter, presentItem } from '../../src/lists/items/listItemPresenter.js';
import { assignSlots, isSlotColumn, slotSqlType } from '../../src/lists/slots.js';
import { stringifyJson } from '../../src/shared/orderedJson.js';
import { storedField } from '../helpers/storedField.js';

/**
 * A page's records are written straight to text (itemWriter); every other answer presents a
 * record as an object (presentItem). Both must write the same bytes, for every field type,
 * sealed or not, slotted or in `data`, whatever form a slot comes back in.
 */
const SEED = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
const cipher = createFieldCipher(randomBytes(32).toString('base64'));

/** Every type twice (the second of a kind gets no slot, or is not the link), a digit slug, sealed ones. */
const FIELDS = assignSlots([
  ...FIELD_TYPES.map((type) => storedField(type, type, { currency: 'EUR' })),
  ...FIELD_TYPES.map((type) => storedField(`${type}_2`, type)),
  storedField('42', 'string'),
  storedField('sealed_text', 'string', { is_encryptable: true }),
  storedField('sealed_day', 'date', { is_encryptable: true }),
]) as StoredField[];

const INPUTS: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.string({ unit: 'binary', maxLength: 30 }).filter((s) => s.trim() !== ''),
  text: fc.string({ unit: 'binary', maxLength: 60 }).filter((s) => s.trim() !== ''),
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  decimal: fc.integer({ min: -1e9, max: 1e9 }).map((c) => (c / 1000).toString()),
  money: fc.integer({ min: -1e9, max: 1e9 }).map((c) => (c / 100).toFixed(2)),
  bool: fc.boolean(),
  date: fc
    .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  datetime: fc
    .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  contact: fc.integer({ min: 1, max: 2 ** 40 }),
  bot: fc.integer({ min: 1, max: 2 ** 40 }),
  file: fc.webUrl().map((url) => ({ url, name: 'f.pdf' })),
  image: fc.webUrl(),
};

/** How a time slot may come back: the page's ISO text, a Date, JSON's form, Postgres's text. */
function timeSlotForms(iso: string): fc.Arbitrary<unknown> {
  const date = new Date(iso);
  return fc.constantFrom(
    iso,
    date,
    iso.replace('Z', '+00:00'),
    `${iso.slice(0, 10)} ${iso.slice(11, 19)}${iso.slice(19, 23) === '.000' ? '' : iso.slice(19, 23)}+00`,
  );
}

/**
 * A record of FIELDS as the page query gives it (slotted values in slots, the rest in data),
 * with each field's value as it must be answered: rendered from the value stored.
 */
const rowArb: fc.Arbitrary<{ row: ItemRow; expected: Record<string, unknown> }> = fc
  .tuple(
    fc.record(
      Object.fromEntries(FIELDS.map((f) => [f.slug, fc.option(INPUTS[f.type]!, { freq: 4 })])),
    ),
    fc.nat(),
  )
  .chain(([inputs, n]) => {
    const data: Record<string, unknown> = {};
    const slotted: Record<string, fc.Arbitrary<unknown>> = {};
    const expected: Record<string, unknown> = {};
    for (const field of FIELDS) {
      const input = inputs[field.slug];
      if (input === null || input === undefined) continue;
      const type = fieldTypeOf(field);
      const parsed = type.parse(input, field);
      if (!parsed.ok) continue;
      const stored: StoredValue = parsed.value;
      expected[field.slug] = JSON.parse(JSON.stringify(type.render(stored, field)));
      if (field.is_encryptable) data[field.slug] = cipher.encrypt(JSON.stringify(stored));
      else if (isSlotColumn(field.slot)) {
        const text = type.toSlot(stored);
        slotted[field.slot] =
          slotSqlType(field.slot) === 'timestamptz'
            ? timeSlotForms(new Date(text).toISOString())
            : fc.constantFrom(text, slotSqlType(field.slot) === 'text' ? text : Number(text));
      } else data[field.slug] = stored;
    }
    return fc.record(slotted).map((slots) => ({
      row: {
        id: `r${n}`,
        data,
        slots: slots as SlotValues,
        createdAt: new Date(Date.UTC(2024, 0, 1) + n),
        updatedAt: new Date(Date.UTC(2024, 0, 2) + n),
      },
      expected,
    }));
  });

describe('a page of records written as text (itemWriter)', () => {
  it('writes each record byte for byte as the presented record serializes', () => {
    const write = itemWriter(FIELDS, cipher);
    fc.assert(
      fc.property(rowArb, ({ row, expected }) => {
        const text = write(row).text;
        expect(text).toBe(stringifyJson(presentItem(FIELDS, row, cipher)));
        // and each value is the one stored, whatever form its slot came back in
        const answered = JSON.parse(text) as Record<string, unknown>;
        for (const field of FIELDS) {
          expect(answered[field.slug], field.slug).toEqual(expected[field.slug] ?? null);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('writes a record without slots (one written before thin documents) the same way', () => {
    const write = itemWriter(FIELDS, cipher);
    const row: ItemRow = {
      id: 'old',
      data: { string: 'kept in data', number: 7, date: '2024-02-29', contact: 12 },
      createdAt: new Date(0),
      updatedAt: new Date(1),
    };
    expect(write(row).text).toBe(stringifyJson(presentItem(FIELDS, row, cipher)));
    expect(JSON.parse(write(row).text)).toMatchObject({
      contact_id: 12,
      date: '2024-02-29T00:00:00.000Z',
    });
  });
});
