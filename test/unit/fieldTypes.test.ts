import { describe, expect, it } from 'vitest';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { fieldTypeOf, fieldTypes } from '../../src/lists/field-types/fieldTypeRegistry.js';

/** The value codecs, one per type (the field shape, 2.3; accepted forms in docs/records.md). */
const field = (type: string, extra: Partial<StoredField> = {}): StoredField => ({
  slug: 'x',
  name: 'x',
  type,
  is_required: false,
  is_hidden: false,
  is_encryptable: false,
  ...extra,
});

function roundTrip(type: string, input: unknown, extra: Partial<StoredField> = {}) {
  const f = field(type, extra);
  const t = fieldTypeOf(f);
  const parsed = t.parse(input, f);
  if (!parsed.ok) return { error: parsed.message };
  return { stored: parsed.value, rendered: t.render(parsed.value, f) };
}

describe('the registry', () => {
  it('has exactly the ten types of the field shape', () => {
    expect([...fieldTypes.keys()].sort()).toEqual([
      'bool',
      'bot',
      'contact',
      'date',
      'datetime',
      'file',
      'image',
      'money',
      'number',
      'string',
    ]);
  });
});

describe('accepted and rejected input per type', () => {
  it.each([
    ['string', 'hello', 'hello', 'hello'],
    ['string', 12.5, '12.5', '12.5'],
    ['string', '  kept as sent ', '  kept as sent ', '  kept as sent '],
    ['string', '😀'.repeat(500), '😀'.repeat(500), '😀'.repeat(500)],
    ['number', '12', 12, 12],
    ['number', '-0.5', -0.5, -0.5],
    ['number', '1e3', 1000, 1000],
    ['number', -0, 0, 0],
    ['number', 1.7976931348623157e308, 1.7976931348623157e308, 1.7976931348623157e308],
    ['bool', true, true, true],
    ['bool', 'false', false, false],
    ['bool', 1, true, true],
    ['bool', '0', false, false],
    ['date', '2024-02-29', '2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['date', '2024-03-01T01:00:00+03:00', '2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['datetime', '2024-05-01 10:20', '2024-05-01T10:20:00.000Z', '2024-05-01T10:20:00.000Z'],
    [
      'datetime',
      '2024-05-01T10:20:30.123456-05:30',
      '2024-05-01T15:50:30.123Z',
      '2024-05-01T15:50:30.123Z',
    ],
    ['datetime', '0001-01-01 00:00', '0001-01-01T00:00:00.000Z', '0001-01-01T00:00:00.000Z'],
    ['datetime', '2024-05-01', '2024-05-01T00:00:00.000Z', '2024-05-01T00:00:00.000Z'],
    ['money', '10.50', '10.5', 10.5],
    ['money', 0.1, '0.1', 0.1],
    ['money', '-0.00', '0', 0],
    ['money', '999999999999999', '999999999999999', 999999999999999],
    ['money', '1e3', '1000', 1000],
    ['contact', '42', 42, 42],
    ['bot', 7, 7, 7],
  ])('%s accepts %j (stored %j, rendered %j)', (type, input, stored, rendered) => {
    expect(roundTrip(type, input)).toEqual({ stored, rendered });
  });

  it.each([
    ['string', true],
    ['string', { a: 1 }],
    ['string', 'a\u0000b'],
    ['string', '\ud800'],
    ['string', 'x'.repeat(501)],
    ['number', 'twelve'],
    ['number', '1e999'],
    ['number', '12 '],
    ['number', true],
    ['bool', 'yes'],
    ['bool', 2],
    ['date', '2023-02-29'],
    ['date', '2024-1-1'],
    ['date', 20240101],
    ['datetime', '2024-05-01 25:00'],
    ['datetime', '2024-05-01T10:00+24:00'],
    ['datetime', '10000-01-01 00:00'],
    ['money', '1.234'],
    ['money', '1234567890123456'],
    ['money', 'ten'],
    ['money', '1e-7'],
    ['contact', 0],
    ['contact', -1],
    ['contact', 1.5],
    ['contact', '1.0'],
    ['bot', Number.MAX_SAFE_INTEGER + 2],
    ['file', 'not a url'],
    ['file', { url: 'javascript:alert(1)' }],
    ['image', { name: 'no url' }],
    ['image', [1]],
  ])('%s rejects %j', (type, input) => {
    expect(roundTrip(type, input)).toHaveProperty('error');
  });

  it('uses the currency minor units for money decimals', () => {
    expect(roundTrip('money', '10.5', { currency: 'JPY' })).toHaveProperty('error');
    expect(roundTrip('money', '10', { currency: 'JPY' })).toEqual({ stored: '10', rendered: 10 });
    expect(roundTrip('money', '1.234', { currency: 'KWD' })).toEqual({
      stored: '1.234',
      rendered: 1.234,
    });
  });

  it('never drifts on money sums: 0.1 and 0.2 stay exact decimals', () => {
    const a = roundTrip('money', 0.1);
    const b = roundTrip('money', '0.2');
    expect([a.stored, b.stored]).toEqual(['0.1', '0.2']);
  });

  it('renders file and image values as the full object of the list item shape', () => {
    expect(
      roundTrip('image', { url: 'https://cdn.example/x/cat%20photo.jpg', storage: 's3' }).rendered,
    ).toEqual({
      type: 'image',
      mime_type: null,
      created_at: null,
      name: 'cat photo.jpg',
      size: 0,
      storage: 's3',
      caption: null,
      meta: { width: null, height: null, duration: null, codec: null },
      url: 'https://cdn.example/x/cat%20photo.jpg',
    });
    expect(roundTrip('file', 'https://a.example/').rendered).toMatchObject({
      type: 'file',
      storage: 'url',
      name: '',
    });
  });
});

describe('filter operands per type (getListItems table)', () => {
  const operand = (type: string, raw: string | number | boolean) =>
    fieldTypeOf(field(type)).filter!.operand(raw);

  it.each([
    ['string', 5, '5'],
    ['number', '1e2', '100'],
    ['money', '10.50', '10.5'],
    ['money', 1e21, '1000000000000000000000'],
    ['bool', 'true', '1'],
    ['bool', 0, '0'],
    ['date', '2024-01-31', '2024-01-31'],
    ['datetime', '2024-01-31 23:59', '2024-01-31T23:59:00.000Z'],
    ['contact', '-3', '-3'],
  ])('%s normalises %j to %j', (type, raw, bound) => {
    expect(operand(type, raw)).toEqual({ ok: true, value: bound });
  });

  it.each([
    ['number', true],
    ['money', 'abc'],
    ['bool', 'maybe'],
    ['date', '2024-01-31 10:00'],
    ['date', 20240131],
    ['datetime', 5],
    ['contact', 'x'],
  ])('%s refuses %j', (type, raw) => {
    expect(operand(type, raw).ok).toBe(false);
  });

  it('gives file and image no filter support (skipped, not sortable)', () => {
    expect(fieldTypeOf(field('file')).filter).toBeUndefined();
    expect(fieldTypeOf(field('image')).filter).toBeUndefined();
  });
});
