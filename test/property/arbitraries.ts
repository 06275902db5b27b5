import fc from 'fast-check';
import type { RefQuery } from './reference.js';

/**
 * Generators for the property test: lists with fields of every type (often more fields of
 * one family than there are slots, so the JSONB fallback is exercised too), records with
 * edge values, and filter sets / orderings mixing valid and invalid input.
 */
export interface Ids {
  contacts: number[];
  bots: number[];
}

export interface GenField {
  slug: string;
  type: string;
  encrypted: boolean;
}

const TYPES = [
  'string',
  'string',
  'string',
  'number',
  'number',
  'money',
  'bool',
  'date',
  'date',
  'datetime',
  'contact',
  'bot',
  'file',
];

const STRINGS = [
  'a',
  'A',
  'apple',
  'Apple pie',
  'APPLE',
  'é',
  'É',
  'ёжик',
  'Ёжик',
  '100%',
  'a_b',
  'a%b',
  '😀',
  '😀a',
  'z',
  ' ',
  ' a ',
  'back\\slash',
  '>=,x',
  'like,y',
  '42',
  '-1',
  'Zebra',
  'ß',
  'über',
  '\u00e9t\u00e9',
  'line\nbreak',
];
const NUMBERS = [
  0, 1, -1, 2.5, -2.5, 0.1, 0.30000000000000004, 10, 100, 1e21, -1e300, 5e-324, 123456789.125,
  9007199254740991,
];
const MONEY = [
  '0',
  '0.1',
  '0.2',
  '0.3',
  '10',
  '10.5',
  '10.50',
  '-3',
  '-0.01',
  '999999999999.99',
  '1234567890123.45',
  '100000000000000',
];
const DAYS = [
  '2024-02-28',
  '2024-02-29',
  '2024-03-01',
  '1999-12-31',
  '2000-01-01',
  '0001-01-01',
  '9999-12-31',
];
const DATETIMES = [
  '2024-02-29 23:59',
  '2024-03-01T00:00:00Z',
  '2024-02-29T23:30:00-01:00',
  '2024-03-01T01:00:00+02:00',
  '2024-03-01 00:00',
  '1999-12-31T23:59:59.999Z',
  '2000-01-01T00:00:00.001+00:00',
];

export const fieldsArb = fc
  .array(
    fc.record({
      type: fc.constantFrom(...TYPES),
      // one field in ten is encrypted
      encrypted: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((fs) => fs.map((f, i) => ({ slug: `f${i}`, ...f })));

function valueArb(type: string, ids: Ids): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return fc.oneof(
        fc.constantFrom(...STRINGS),
        fc.string({
          unit: fc.constantFrom('a', 'B', '%', '_', 'é', 'Ж', '1', ' '),
          minLength: 1,
          maxLength: 6,
        }),
      );
    case 'number':
      return fc.oneof(
        fc.constantFrom(...NUMBERS),
        fc.integer({ min: -50, max: 50 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      );
    case 'money':
      return fc.oneof(
        fc.constantFrom(...MONEY),
        fc.integer({ min: -9999, max: 9999 }).map((c) => (c / 100).toFixed(2)),
      );
    case 'bool':
      return fc.boolean();
    case 'date':
      return fc.constantFrom(...DAYS);
    case 'datetime':
      return fc.constantFrom(...DATETIMES);
    case 'contact':
      return fc.constantFrom(...ids.contacts);
    case 'bot':
      return fc.constantFrom(...ids.bots);
    default:
      return fc.constant({ url: 'https://files.example/doc.pdf' });
  }
}

export function recordsArb(fields: GenField[], ids: Ids) {
  const one = fc.record(
    Object.fromEntries(
      fields.map((f) => [f.slug, fc.option(valueArb(f.type, ids), { nil: undefined, freq: 3 })]),
    ),
  );
  return fc
    .array(one, { maxLength: 25 })
    .map((rs) =>
      rs.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined))),
    );
}

const PATTERNS = [
  '%',
  '%%',
  'a%',
  '%a',
  '%a%',
  'A%',
  '_',
  '__',
  'a_b',
  '%\\%',
  '%😀%',
  'Ё%',
  '%é%',
  '%%%a%%%',
  '100%',
  'apple',
  '%x%y%z%a%b%c%d%e%f%g%h%',
];

function operandArb(type: string, ids: Ids): fc.Arbitrary<string> {
  const text = (a: fc.Arbitrary<unknown>) => a.map((v) => String(v));
  switch (type) {
    case 'string':
      return fc.oneof(fc.constantFrom(...STRINGS), fc.constantFrom(...PATTERNS));
    case 'number':
      return fc.oneof(
        text(fc.constantFrom(...NUMBERS)),
        fc.constantFrom('1e21', '-0', '+5', '.5', '2.50', 'abc', '1e999'),
      );
    case 'money':
      return fc.oneof(
        fc.constantFrom(...MONEY),
        fc.constantFrom('10.500', '0.30000000000000004', '1e1', 'x'),
      );
    case 'bool':
      return fc.constantFrom('true', 'false', '1', '0', 'yes');
    case 'date':
      return fc.constantFrom(...DAYS, '2024-02-30', '2024-3-1');
    case 'datetime':
      return fc.constantFrom(
        '2024-02-29 23:59',
        '2024-03-01 00:00',
        '2024-03-01T00:00:00Z',
        '2024-02-29T23:00:00-01:00',
        '2024-03-01T02:00:00+02:00',
        '2000-01-01T00:00:00.001Z',
        'noon',
      );
    case 'contact':
      return text(fc.constantFrom(...ids.contacts, 0, 'x'));
    case 'bot':
      return text(fc.constantFrom(...ids.bots, 0));
    default:
      return fc.constant('x');
  }
}

function filterValueArb(field: GenField | undefined, ids: Ids): fc.Arbitrary<unknown> {
  const type = field?.type ?? 'string';
  const ops = ['=', '!=', '<>', '<', '<=', '>', '>=', 'like', 'not like'];
  // mostly operators the type allows (getListItems table), sometimes any, to hit the 422s too
  const suitable = type === 'string' ? ops : type === 'bool' ? ops.slice(0, 3) : ops.slice(0, 7);
  const op = fc.oneof(
    { arbitrary: fc.constantFrom(...suitable), weight: 12 },
    { arbitrary: fc.constantFrom(...ops), weight: 1 },
  );
  return fc.oneof(
    { arbitrary: valueArb(type, ids), weight: 4 },
    { arbitrary: fc.tuple(op, operandArb(type, ids)).map(([o, v]) => `${o},${v}`), weight: 8 },
    {
      arbitrary: fc.constantFrom(null, '', { a: 1 }, 'abc', 'LIKE,x', 'like,', '=,like,x'),
      weight: 1,
    },
  );
}

/** undefined seven times in eight */
const rarely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 7 }, { arbitrary: arb, weight: 1 });

export function queryArb(
  fields: GenField[],
  ids: Ids,
): fc.Arbitrary<RefQuery & { via: 'json' | 'query' }> {
  const slugs = [...fields.map((f) => f.slug), 'unknown'];
  const filters = fc
    .array(fc.constantFrom(...slugs), { maxLength: 2 })
    .chain((chosen) =>
      fc.tuple(
        ...[...new Set(chosen)].map((slug) =>
          filterValueArb(
            fields.find((f) => f.slug === slug),
            ids,
          ).map((v) => [slug, v] as const),
        ),
      ),
    )
    .map((entries) => Object.fromEntries(entries));
  const sortable = fields.filter((f) => !f.encrypted && f.type !== 'file').map((f) => f.slug);
  const target = fc.oneof(
    { arbitrary: fc.constantFrom(...sortable, 'created_at', 'updated_at'), weight: 12 },
    { arbitrary: fc.constantFrom(...slugs), weight: 1 },
  );
  const direction = fc.oneof(
    { arbitrary: fc.constantFrom('', ',asc', ',desc', ',DESC', ' , desc'), weight: 12 },
    { arbitrary: fc.constant(',up'), weight: 1 },
  );
  const orderBy = fc.option(
    fc.tuple(target, direction).map(([s, d]) => `${s}${d}`),
    { nil: undefined },
  );
  return fc.record({
    filters: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 1 },
      { arbitrary: filters, weight: 5 },
    ),
    order_by: orderBy,
    limit: fc.integer({ min: 1, max: 25 }),
    page: fc.oneof(
      { arbitrary: fc.constant(1), weight: 3 },
      { arbitrary: fc.integer({ min: 2, max: 3 }), weight: 1 },
    ),
    contact_id: rarely(fc.constantFrom(...ids.contacts)),
    bot_id: rarely(fc.constantFrom(...ids.bots)),
    via: fc.constantFrom('json' as const, 'query' as const),
  });
}
