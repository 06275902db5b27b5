/**
 * The sweep's records and the filters it sends: ten typed fields whose values are spread so
 * that every filter shape matches a chosen share of a list, for getListItems and for the
 * plain-table twin's SQL alike.
 */
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { assignSlots } from '../../src/lists/slots.js';
import { fieldInput as field } from './dataset.js';

/** Ten typed fields: three strings, two numbers, money, bool, date, datetime, contact. */
export const FIELDS = assignSlots([
  field('city', 'string'),
  field('segment', 'string'),
  field('note', 'string'),
  field('amount', 'number'),
  field('rank', 'number'),
  field('price', 'money', { currency: 'USD' }),
  field('flag', 'bool'),
  field('day', 'date'),
  field('at', 'datetime'),
  field('contact', 'contact'),
]) as StoredField[];

/** `city` takes `c0.1`, `c1`, `c5`, `c10`, `c50` on exactly that share of records. */
const CITY_TIERS: [number, string][] = [
  [1, 'c0.1'],
  [11, 'c1'],
  [61, 'c5'],
  [161, 'c10'],
  [661, 'c50'],
];
/** the share of records whose city starts with `c` (every tier; the rest are `x…`) */
const C_PREFIX_SHARE = 0.661;
/** the city matching `s` of the records (`c1` for 1 %) */
export const cityValue = (s: number) => `c${s * 100}`;
export const DAY0 = Date.UTC(2020, 0, 1);
const DAYS = 1000;
const isoDay = (n: number) => new Date(DAY0 + n * 86_400_000).toISOString().slice(0, 10);

/** Record k: `city` by a scrambled per-mille, `amount` uniform on 0…999,999, `day` on 1000 days. */
export function recordInput(k: number) {
  const perMille = Math.imul(k, 2654435761) >>> 0;
  const r = perMille % 1000;
  const city = CITY_TIERS.find(([below]) => r < below)?.[1] ?? `x${r}`;
  const amount = (Math.imul(k, 7919) >>> 0) % 1_000_000;
  return {
    city,
    segment: `s${k % 100}`,
    note: `note ${k}`,
    amount,
    rank: (Math.imul(k, 104729) >>> 0) % 1_000_000,
    price: ((k * 31) % 100_000) / 100,
    flag: k % 2 === 0,
    day: isoDay((Math.imul(k, 6151) >>> 0) % DAYS),
    at: new Date(DAY0 + k * 1000).toISOString(),
    contact: 1 + (k % 1000),
  };
}

export interface Shape {
  name: string;
  /**
   * getListItems' filters matching `s` of the records; `j` scales the share of the first
   * range's bound (`amount`'s where there is one): a new bound near the point's, as the
   * "bounds" case sends. An equality has only the values there are; other ranges stay.
   */
  filters: (s: number, j?: number) => Record<string, string>;
  orderBy: string;
  /** the twin's WHERE (with $1, $2, …), its values and its ORDER BY */
  plainWhere: string;
  plainValues: (s: number, j?: number) => (string | number)[];
  plainOrder: string;
}

/** `amount < ` the bound matching `share × j` of the records (uniform on 0…999,999) */
const amountBelow = (share: number, j = 1) => Math.round(Math.min(1, share * j) * 1_000_000);
/** `day < ` the day matching `share × j` of the records (uniform on 1000 days; `2020-04-10` for 10 %) */
export const dayBelow = (share: number, j = 1) => isoDay(Math.round(Math.min(1, share * j) * DAYS));

/**
 * The combined shapes split the selectivity between their conditions, whose values are drawn
 * independently: `city = c50` (half the records) with `amount` over 2s, two ranges over √s
 * each, `city like c%` (66.1 %) with `amount` over s/0.661, and the three over ½ and √(2s).
 * Where a share would pass 100 % (50 % with an equality on half the records) the range
 * matches every record; the report's "matched" column is the share the twin counted.
 */
export const SHAPES: Shape[] = [
  {
    name: 'string =',
    filters: (s) => ({ city: cityValue(s) }),
    orderBy: 'rank,desc',
    plainWhere: 'city = $1',
    plainValues: (s) => [cityValue(s)],
    plainOrder: 'rank desc',
  },
  {
    name: 'number <',
    filters: (s, j) => ({ amount: `<,${amountBelow(s, j)}` }),
    orderBy: 'day,asc',
    plainWhere: 'amount < $1',
    plainValues: (s, j) => [amountBelow(s, j)],
    plainOrder: 'day asc',
  },
  {
    name: 'date <',
    filters: (s, j) => ({ day: `<,${dayBelow(s, j)}` }),
    orderBy: 'amount,desc',
    plainWhere: 'day < $1',
    plainValues: (s, j) => [dayBelow(s, j)],
    plainOrder: 'amount desc',
  },
  {
    name: '= and <',
    filters: (s, j) => ({ city: 'c50', amount: `<,${amountBelow(2 * s, j)}` }),
    orderBy: 'rank,desc',
    plainWhere: 'city = $1 and amount < $2',
    plainValues: (s, j) => ['c50', amountBelow(2 * s, j)],
    plainOrder: 'rank desc',
  },
  {
    name: '< and <',
    filters: (s, j) => ({
      amount: `<,${amountBelow(Math.sqrt(s), j)}`,
      day: `<,${dayBelow(Math.sqrt(s))}`,
    }),
    orderBy: 'rank,desc',
    plainWhere: 'amount < $1 and day < $2',
    plainValues: (s, j) => [amountBelow(Math.sqrt(s), j), dayBelow(Math.sqrt(s))],
    plainOrder: 'rank desc',
  },
  {
    name: 'like and <',
    filters: (s, j) => ({ city: 'like,c%', amount: `<,${amountBelow(s / C_PREFIX_SHARE, j)}` }),
    orderBy: 'day,asc',
    // getListItems' like is case-insensitive
    plainWhere: 'city ilike $1 and amount < $2',
    plainValues: (s, j) => ['c%', amountBelow(s / C_PREFIX_SHARE, j)],
    plainOrder: 'day asc',
  },
  {
    name: '= and < and <',
    filters: (s, j) => ({
      city: 'c50',
      amount: `<,${amountBelow(Math.sqrt(2 * s), j)}`,
      day: `<,${dayBelow(Math.sqrt(2 * s))}`,
    }),
    orderBy: 'rank,desc',
    plainWhere: 'city = $1 and amount < $2 and day < $3',
    plainValues: (s, j) => ['c50', amountBelow(Math.sqrt(2 * s), j), dayBelow(Math.sqrt(2 * s))],
    plainOrder: 'rank desc',
  },
];
