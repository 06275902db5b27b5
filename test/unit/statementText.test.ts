import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, QueryBuilder } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { listItems } from '../../src/infra/db/schema/listItems.js';
import { buildStatement } from '../../src/infra/db/statementText.js';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { compileSort, compileWhere, type Hiding } from '../../src/lists/filters/compile.js';
import { parseFilters } from '../../src/lists/filters/parseFilters.js';
import { parseOrderBy } from '../../src/lists/filters/parseOrderBy.js';
import type { ItemQuery } from '../../src/lists/filters/query.js';
import { pageQuery } from '../../src/lists/items/pageQueries.js';
import { recordJson } from '../../src/lists/items/recordJson.js';
import { storedField } from '../helpers/storedField.js';

/**
 * The statement builder (infra/db/statementText.ts) against drizzle's own: the same text and
 * the same values, piece by piece, for random statements and for the read path's own, and
 * drizzle's build where a statement holds what the builder leaves to it.
 */
const dialect = new PgDialect();

/** drizzle's text and values (its `typings` neither driver reads) */
function expectLikeDrizzle(query: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const built = buildStatement(dialect, query);
  expect({ sql: built.sql, params: built.params }).toEqual({ sql: text, params });
}

describe('buildStatement', () => {
  it('writes each kind of piece as drizzle does', () => {
    const when = new Date('2026-11-29T12:00:00Z');
    expectLikeDrizzle(
      sql`select ${listItems.id}, "x" from ${listItems} where ${sql.identifier('a"b')} = ${'v'}
        and n = ${7} and big = ${12n} and yes = ${true} and gone is ${null} and at = ${when}
        and bytes = ${Buffer.from('ab')}${undefined} and ${sql.raw('1 = 1')}
        and ${sql.join([sql`p = ${1}`, sql`q = ${2}`, sql.raw('r')], sql` or `)}`,
    );
  });

  it('numbers the values of nested statements in their order', () => {
    const inner = sql`b = ${'two'} and c = ${3}`;
    const built = buildStatement(dialect, sql`a = ${1} and (${inner}) and d = ${4}`);
    expect(built).toEqual({
      sql: 'a = $1 and (b = $2 and c = $3) and d = $4',
      params: [1, 'two', 3, 4],
    });
  });

  it('leaves to drizzle what it does not write: lists of values, typed and inlined ones, builders', () => {
    const subquery = new QueryBuilder().select({ id: listItems.id }).from(listItems);
    const cases: SQL[] = [
      sql`id in ${[1, 2, 3]}`,
      sql`id = ${sql.param('x', listItems.id)}`,
      sql`n = ${5} and s = ${"it's"}`.inlineParams(),
      sql`a = ${1} and id in ${subquery}`,
    ];
    for (const query of cases) expectLikeDrizzle(query);
    // the list really is drizzle's: (1, 2, 3) as three values
    expect(buildStatement(dialect, cases[0]!).sql).toBe('id in ($1, $2, $3)');
    expect(buildStatement(dialect, cases[2]!).sql).toBe("n = 5 and s = 'it''s'");
  });

  it('writes random statements as drizzle does', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const leaf = (): unknown =>
      [
        () => `s${random(100)}`,
        () => random(1000),
        () => random(2) === 0,
        () => null,
        () => listItems.ownerId,
        () => listItems,
        () => sql.identifier(`col${random(9)}`),
        () => sql.raw(` raw${random(9)} `),
        () => undefined,
      ][random(9)]!();
    const tree = (depth: number): SQL => {
      const pieces = Array.from({ length: 1 + random(6) }, () =>
        depth > 0 && random(3) === 0 ? tree(depth - 1) : leaf(),
      );
      return random(4) === 0
        ? sql.join(pieces as SQL[], sql`, `)
        : sql`(${sql.join(
            pieces.map((piece) => sql` x ${piece} y`),
            sql` and `,
          )})`;
    };
    for (let i = 0; i < 300; i++) expectLikeDrizzle(tree(4));
  });
});

describe("the read path's statements", () => {
  const FIELDS: StoredField[] = [
    storedField('s', 'string', { slot: 't1' }),
    storedField('n', 'number', { slot: 'n1' }),
    storedField('d', 'date', { slot: 'd1' }),
    storedField('c', 'contact', { slot: 'contact_id' }),
    storedField('s2', 'string'),
  ];
  const FILTERS = [
    { s: 'a' },
    { n: '<,5', d: '>=,2026-01-01' },
    { s: 'like,ab%', n: '>,1', s2: '!=,x' },
  ];
  const HIDINGS: Hiding[] = ['none', 'bounds', 'all'];

  it('builds the pages and their WHERE as drizzle does', () => {
    const record = recordJson({ id: 'list', fields: FIELDS, layout: 3 });
    for (const filters of FILTERS) {
      for (const hiding of HIDINGS) {
        const query: ItemQuery = {
          ownerId: 9,
          listId: 'L',
          fields: FIELDS,
          conditions: parseFilters(FIELDS, filters),
          links: { contact: 4 },
          sort: parseOrderBy(FIELDS, 'n,desc'),
        };
        const where = compileWhere(query, hiding);
        expectLikeDrizzle(where);
        const [segment] = compileSort(query.sort);
        expectLikeDrizzle(segment!.where!);
        for (const onePass of [true, false]) {
          const list = { ownerId: 9, listId: 'L' };
          expectLikeDrizzle(
            pageQuery(list, where, segment!.orderBy, 50, 100, onePass, hiding === 'all'),
          );
          expectLikeDrizzle(
            pageQuery(list, where, segment!.orderBy, 50, 0, onePass, false, undefined, record),
          );
        }
      }
    }
  });
});
