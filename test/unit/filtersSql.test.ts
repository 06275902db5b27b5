import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { ValidationError } from '../../src/shared/domainErrors.js';
import {
  compileSort,
  compileWalkWhere,
  compileWhere,
  type Hiding,
} from '../../src/lists/filters/compile.js';
import { parseFilters } from '../../src/lists/filters/parseFilters.js';
import { parseOrderBy } from '../../src/lists/filters/parseOrderBy.js';
import type { ItemQuery } from '../../src/lists/filters/query.js';
import { storedField } from '../helpers/storedField.js';

/**
 * The filter compiler, first half (STYLE 6): the SQL text and bound parameters it emits per
 * type × operator (getListItems). The second half, the rows found, is listItemsFilterRows.test.ts.
 */
const dialect = new PgDialect();

const field = storedField;

const FIELDS: StoredField[] = [
  field('s', 'string', { slot: 't1' }),
  field('n', 'number', { slot: 'n1' }),
  field('m', 'money', { slot: 'n2', currency: 'USD' }),
  field('b', 'bool', { slot: 'n3' }),
  field('d', 'date', { slot: 'd1' }),
  field('dt', 'datetime', { slot: 'd2' }),
  field('c', 'contact', { slot: 'contact_id' }),
  field('bo', 'bot', { slot: 'bot_id' }),
  field('c2', 'contact'),
  field('s2', 'string'),
  field('n2', 'number'),
  field('b2', 'bool'),
  field('d2', 'date'),
  field('dt2', 'datetime'),
  field('f', 'file'),
  field('secret', 'string', { is_encryptable: true }),
];

function where(filters: unknown, links: ItemQuery['links'] = {}) {
  const query: ItemQuery = {
    ownerId: 1,
    listId: 'L',
    fields: FIELDS,
    conditions: parseFilters(FIELDS, filters),
    links,
    sort: parseOrderBy(FIELDS, undefined),
  };
  const { sql, params } = dialect.sqlToQuery(compileWhere(query));
  // every filter starts with the tenant key; the cases below read the rest as $1…
  const owner = '"owner_id" = $1 and ';
  expect(sql.startsWith(owner) && params[0] === 1).toBe(true);
  return {
    sql: sql.slice(owner.length).replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) - 1}`),
    params: params.slice(1),
  };
}

/** Sort segments as text: `where | order by` each. */
function order(orderBy: string | undefined) {
  return compileSort(parseOrderBy(FIELDS, orderBy)).map((segment) => {
    const where = segment.where ? dialect.sqlToQuery(segment.where).sql : '';
    return `${where} | ${dialect.sqlToQuery(segment.orderBy).sql}`;
  });
}

const base = '"list_key" = hashtextextended($1::text, 0)';

describe('filter SQL on slotted fields (getListItems per-type table)', () => {
  it.each([
    ['string =', { s: 'x' }, `${base} and "t1" = $2`, ['L', 'x']],
    ['string !=', { s: '!=,x' }, `${base} and "t1" <> $2`, ['L', 'x']],
    ['string <>', { s: '<>,x' }, `${base} and "t1" <> $2`, ['L', 'x']],
    ['string <', { s: '<,x' }, `${base} and "t1" < $2`, ['L', 'x']],
    ['string >=', { s: '>=,x' }, `${base} and "t1" >= $2`, ['L', 'x']],
    [
      'string like, its case variants first (likeCondition.ts)',
      { s: 'like,%A_b%' },
      `${base} and ("t1" like $2 escape '' or "t1" like $3 escape '' or "t1" like $4 escape '' or "t1" like $5 escape '' or (octet_length("t1") <> length("t1") and "t1" ilike $6 escape ''))`,
      ['L', '%a_b%', '%a_B%', '%A_b%', '%A_B%', '%A_b%'],
    ],
    [
      'string like of three letters: ILIKE alone',
      { s: 'like,%abc' },
      `${base} and "t1" ilike $2 escape ''`,
      ['L', '%abc'],
    ],
    [
      'string not like',
      { s: 'not like,a' },
      `${base} and not ("t1" like $2 escape '' or "t1" like $3 escape '' or (octet_length("t1") <> length("t1") and "t1" ilike $4 escape ''))`,
      ['L', 'a', 'A', 'a'],
    ],
    [
      'string like collapses % runs',
      { s: 'like,%%%i%%' },
      `${base} and "t1" ilike $2 escape ''`,
      ['L', '%i%'],
    ],
    ['string from a JSON number', { s: 12.5 }, `${base} and "t1" = $2`, ['L', '12.5']],
    ['=, escape', { s: '=,like,x' }, `${base} and "t1" = $2`, ['L', 'like,x']],
    ['no operator before the comma', { s: 'a,b' }, `${base} and "t1" = $2`, ['L', 'a,b']],
    ['number =', { n: '1e3' }, `${base} and "n1" = $2::numeric`, ['L', '1000']],
    ['number <=', { n: '<=,-0.5' }, `${base} and "n1" <= $2::numeric`, ['L', '-0.5']],
    ['number from JSON', { n: 7 }, `${base} and "n1" = $2::numeric`, ['L', '7']],
    ['money >', { m: '>,10.50' }, `${base} and "n2" > $2::numeric`, ['L', '10.5']],
    [
      'money exact decimal',
      { m: '0.30000000000000004' },
      `${base} and "n2" = $2::numeric`,
      ['L', '0.30000000000000004'],
    ],
    ['bool =', { b: 'true' }, `${base} and "n3" = $2::numeric`, ['L', '1']],
    ['bool !=', { b: '!=,0' }, `${base} and "n3" <> $2::numeric`, ['L', '0']],
    ['contact =', { c: '5' }, `${base} and "contact_id" = $2::bigint`, ['L', '5']],
    ['bot >', { bo: '>,5' }, `${base} and "bot_id" > $2::bigint`, ['L', '5']],
    [
      'datetime =',
      { dt: '2024-05-01 10:20' },
      `${base} and "d2" = $2::timestamptz`,
      ['L', '2024-05-01T10:20:00.000Z'],
    ],
    [
      'datetime with offset',
      { dt: '<,2024-05-01T10:20:00+03:00' },
      `${base} and "d2" < $2::timestamptz`,
      ['L', '2024-05-01T07:20:00.000Z'],
    ],
  ])('%s', (_name, filters, sqlText, params) => {
    expect(where(filters)).toEqual({ sql: sqlText, params });
  });

  const day = '2024-02-28T00:00:00.000Z';
  const next = '2024-02-29T00:00:00.000Z';
  it.each([
    ['=', `("d1" >= $2::timestamptz and "d1" < $3::timestamptz)`, [day, next]],
    ['!=', `("d1" < $2::timestamptz or "d1" >= $3::timestamptz)`, [day, next]],
    ['<', `"d1" < $2::timestamptz`, [day]],
    ['<=', `"d1" < $2::timestamptz`, [next]],
    ['>', `"d1" >= $2::timestamptz`, [next]],
    ['>=', `"d1" >= $2::timestamptz`, [day]],
  ])('date %s compares whole UTC days', (op, sqlText, params) => {
    expect(where({ d: `${op},2024-02-28` })).toEqual({
      sql: `${base} and ${sqlText}`,
      params: ['L', ...params],
    });
  });
});

describe('filter SQL on fields without a slot (JSONB fallback)', () => {
  it.each([
    [
      'string like: ILIKE alone, the value extracted once',
      { s2: 'like,a%' },
      `${base} and ("data" ->> $2) ilike $3 escape ''`,
      ['L', 's2', 'a%'],
    ],
    [
      'number',
      { n2: '>,1' },
      `${base} and (("data" ->> $2))::numeric > $3::numeric`,
      ['L', 'n2', '1'],
    ],
    [
      'bool',
      { b2: false },
      `${base} and ((("data" ->> $2))::boolean)::int = $3::numeric`,
      ['L', 'b2', '0'],
    ],
    [
      'contact',
      { c2: 9 },
      `${base} and (("data" ->> $2))::numeric = $3::numeric`,
      ['L', 'c2', '9'],
    ],
    [
      'datetime',
      { dt2: '2024-01-01T00:00Z' },
      `${base} and (("data" ->> $2))::timestamptz = $3::timestamptz`,
      ['L', 'dt2', '2024-01-01T00:00:00.000Z'],
    ],
    [
      'date',
      { d2: '<,2024-01-01' },
      `${base} and ((("data" ->> $2)) || 'T00:00:00Z')::timestamptz < $3::timestamptz`,
      ['L', 'd2', '2024-01-01T00:00:00.000Z'],
    ],
  ])('%s binds the slug as a parameter', (_name, filters, sqlText, params) => {
    expect(where(filters)).toEqual({ sql: sqlText, params });
  });

  it('never puts a slug or a value into the SQL text', () => {
    const evil = "x'); drop table list_items; --";
    const fields = [field(evil, 'string')];
    const query: ItemQuery = {
      ownerId: 1,
      listId: 'L',
      fields,
      conditions: parseFilters(fields, { [evil]: `like,${evil}` }),
      links: {},
      sort: parseOrderBy(fields, `${evil},desc`),
    };
    const compiled = dialect.sqlToQuery(compileWhere(query));
    expect(compiled.sql).not.toContain('drop');
    expect(compiled.params).toEqual([1, 'L', evil, evil]);
    const [present, missing] = compileSort(query.sort).map((seg) =>
      dialect.sqlToQuery(seg.orderBy),
    );
    expect(present).toEqual({
      sql: '("data" ->> $1) desc, "id" desc',
      params: [evil],
      typings: expect.anything(),
    });
    expect(missing!.sql).toBe('"created_at" desc, "id" desc');
  });
});

describe('skipped and refused conditions (getListItems)', () => {
  it('skips unknown slugs, encrypted fields, file fields, null and empty values', () => {
    expect(where({ nope: 'x', secret: 'x', f: 'x', s: null, n: '' })).toEqual({
      sql: base,
      params: ['L'],
    });
  });

  it.each([
    [{ n: 'abc' }, 'filters.n'],
    [{ n: 'like,1' }, 'filters.n'],
    [{ m: 'like,1%' }, 'filters.m'],
    [{ b: '<,1' }, 'filters.b'],
    [{ b: 'yes' }, 'filters.b'],
    [{ d: '2024-02-30' }, 'filters.d'],
    [{ d: 'like,2024%' }, 'filters.d'],
    [{ dt: 'tomorrow' }, 'filters.dt'],
    [{ c: '1.5' }, 'filters.c'],
    [{ s: { a: 1 } }, 'filters.s'],
    [{ s: true }, 'filters.s'],
    [{ s: 'x\u0000' }, 'filters.s'],
    [{ s: `like,${'a'.repeat(256)}` }, 'filters.s'],
    [{ s: `like,${'%a'.repeat(11)}` }, 'filters.s'],
    ['text', 'filters'],
    [42, 'filters'],
  ])('refuses %j under %s', (filters, key) => {
    try {
      where(filters);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).errors)).toEqual([key]);
    }
  });

  it('reports every bad condition at once', () => {
    try {
      where({ n: 'x', m: 'y' });
      expect.unreachable();
    } catch (err) {
      expect(Object.keys((err as ValidationError).errors).sort()).toEqual([
        'filters.m',
        'filters.n',
      ]);
    }
  });
});

describe('contact_id / bot_id parameters', () => {
  it('match any unencrypted field of the type', () => {
    expect(where({}, { contact: 5 })).toEqual({
      sql: `${base} and ("contact_id" = $2::bigint or (("data" ->> $3))::numeric = $4::numeric)`,
      params: ['L', '5', 'c2', '5'],
    });
    expect(where({}, { bot: 7 }).sql).toBe(`${base} and "bot_id" = $2::bigint`);
  });
});

describe('order by SQL (getListItems order_by)', () => {
  const missingLast = (dir: string) => ` | "created_at" ${dir}, "id" ${dir}`;
  it.each([
    ['created_at', [' | "created_at" asc, "id" asc']],
    ['updated_at,desc', [' | "updated_at" desc, "id" desc']],
    ['n,desc', ['"n1" is not null | "n1" desc, "id" desc', `"n1" is null${missingLast('desc')}`]],
    ['s', ['"t1" is not null | "t1" asc, "id" asc', `"t1" is null${missingLast('asc')}`]],
    [
      'd2,asc',
      [
        `((("data" ->> $1)) || 'T00:00:00Z')::timestamptz is not null | ((("data" ->> $1)) || 'T00:00:00Z')::timestamptz asc, "id" asc`,
        `((("data" ->> $1)) || 'T00:00:00Z')::timestamptz is null${missingLast('asc')}`,
      ],
    ],
    [
      ' n , DESC ',
      ['"n1" is not null | "n1" desc, "id" desc', `"n1" is null${missingLast('desc')}`],
    ],
  ])(
    '%s → values by the typed column, then missing values in insertion order',
    (orderBy, segments) => {
      expect(order(orderBy)).toEqual(segments);
    },
  );

  it.each(['secret,asc', 'f', 'nope', 'n,up', 'n,asc,x'])(
    'refuses %s under order_by',
    (orderBy) => {
      expect(() => order(orderBy)).toThrow(ValidationError);
    },
  );

  it('defaults to insertion order', () => {
    expect(order(undefined)).toEqual([' | "created_at" asc, "id" asc']);
  });
});

describe('values hidden from the planner (compileWhere hiding)', () => {
  const compiled = (filters: unknown, hiding: Hiding) =>
    dialect.sqlToQuery(
      compileWhere(
        {
          ownerId: 1,
          listId: 'L',
          fields: FIELDS,
          conditions: parseFilters(FIELDS, filters),
          links: {},
          sort: parseOrderBy(FIELDS, undefined),
        },
        hiding,
      ),
    ).sql;

  it('none: every value a plain parameter', () => {
    expect(compiled({ n: '<,5', s: 'x' }, 'none')).toBe(
      '"owner_id" = $1 and "list_key" = hashtextextended($2::text, 0) and "n1" < $3::numeric and "t1" = $4',
    );
  });

  it('bounds: only the range bounds behind a subquery', () => {
    expect(compiled({ n: '<,5', s: 'x' }, 'bounds')).toBe(
      '"owner_id" = $1 and "list_key" = hashtextextended($2::text, 0) and "n1" < (select $3::numeric) and "t1" = $4',
    );
  });

  it("all: the owner and every operand behind a subquery; the list's key a parameter", () => {
    // the key names the list's partition (listScope.ts)
    expect(compiled({ n: '<,5', s: 'x' }, 'all')).toBe(
      '"owner_id" = (select $1::bigint) and "list_key" = hashtextextended($2::text, 0) and "n1" < (select $3::numeric) and "t1" = (select $4)',
    );
    expect(compiled({ d: '=,2026-01-02' }, 'all')).toContain(
      '"d1" >= (select $3::timestamptz) and "d1" < (select $4::timestamptz)',
    );
  });
});

describe('a walk kept for its list (compileWalkWhere)', () => {
  const compiled = (filters: unknown, listId = 'L') =>
    dialect.sqlToQuery(
      compileWalkWhere({
        ownerId: 1,
        listId,
        fields: FIELDS,
        conditions: parseFilters(FIELDS, filters),
        links: {},
        sort: parseOrderBy(FIELDS, undefined),
      }),
    );

  it("writes the list's id into the text and hides each condition from every index", () => {
    const { sql, params } = compiled({ n: '<,5', s: 'x' });
    expect(sql).toBe(
      `"owner_id" = (select $1::bigint) and "list_key" = hashtextextended('L'::text, 0) and coalesce("n1" < (select $2::numeric), false) and coalesce("t1" = (select $3), false)`,
    );
    expect(params).toEqual([1, '5', 'x']);
  });

  it("writes a quote in the list's id as a literal's doubled quote", () => {
    expect(compiled({ s: 'x' }, "a'b; drop table x --").sql).toContain(
      `hashtextextended('a''b; drop table x --'::text, 0)`,
    );
  });
});
