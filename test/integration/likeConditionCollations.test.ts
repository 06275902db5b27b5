import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import { caseVariants, compileLike } from '../../src/lists/filters/likeCondition.js';
import {
  createCollatedTestDatabase,
  createTestDatabase,
  type TestDatabase,
} from '../helpers/database.js';

/**
 * getListItems' `like` with its case variants (src/lists/filters/likeCondition.ts) matches
 * exactly the values ILIKE matches, `not like` exactly those it does not: on the tests'
 * `C.UTF-8` database, on one whose collation is ICU Turkish (where `I` lowers to `ı`), and on
 * embedded PGlite (locale C: only ASCII letters fold). The values hold the characters whose
 * case mapping is not ASCII's own: the Kelvin sign lowers to `k`, `İ` to `i`, the long `ſ`
 * uppercases to `S`.
 */
const VALUES = [
  'c50',
  'C50',
  'xc',
  'Ac',
  'k9',
  'K9',
  '\u212a9',
  'Kelvin \u212a',
  'ſun',
  'Sun',
  'İstanbul',
  'Istanbul',
  'ıi',
  'Straße',
  'STRASSE',
  'Ёжик',
  'ёЖ',
  '100%_real',
  'back\\slash',
  'a_b',
  'A-B',
  '',
  ' c',
  'ǅ',
  'Ω',
  '😀c',
];

/** Pattern characters: letters with and without ASCII-only case, wildcards, a backslash. */
const pattern = fc.string({
  unit: fc.constantFrom('c', 'C', 'k', 'K', 's', 'S', 'a', 'b', '%', '_', '5', '\\', ' ', 'ſ', 'ı'),
  maxLength: 5,
});

async function valuesTable(db: Database) {
  await db.execute(sql`create temporary table vals (s text)`);
  for (const value of [...VALUES, null])
    await db.execute(sql`insert into vals (s) values (${value})`);
}

async function matched(db: Database, condition: SQL): Promise<string[]> {
  const rows = await queryRows<{ s: string }>(db, sql`select s from vals s where ${condition}`);
  return rows.map((r) => r.s).sort();
}

/** Checks every generated pattern (and each value as a pattern) on `db`. */
async function sameAsIlike(db: Database) {
  const column = sql`s`;
  const check = async (p: string) => {
    const ilike = sql`s ilike ${p} escape ''`;
    expect(await matched(db, compileLike(column, p, true)), p).toEqual(await matched(db, ilike));
    expect(await matched(db, sql`not ${compileLike(column, p, true)}`), p).toEqual(
      await matched(db, sql`not (${ilike})`),
    );
  };
  for (const value of VALUES) await check(value);
  await fc.assert(fc.asyncProperty(pattern, check), { numRuns: 150 });
}

describe('like with case variants matches what ILIKE matches', () => {
  let databases: TestDatabase[] = [];
  let pglite: PGlite | undefined;
  beforeAll(async () => {
    databases = [await createTestDatabase(), await createCollatedTestDatabase('tr-TR')];
    pglite = new PGlite();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(databases.map((d) => d.drop()));
    await pglite?.close();
  });

  it('has patterns that take the variants and patterns left to ILIKE', () => {
    expect(caseVariants('c%')).toEqual(['c%', 'C%']);
    expect(caseVariants('%5_')).toEqual(['%5_']);
    expect(caseVariants('%A_b%')).toEqual(['%a_b%', '%a_B%', '%A_b%', '%A_B%']);
    // three letters, an i, a letter outside ASCII: ILIKE alone
    expect(caseVariants('abc%')).toBeUndefined();
    expect(caseVariants('%i%')).toBeUndefined();
    expect(caseVariants('%ſ%')).toBeUndefined();
  });

  it('on Postgres (C.UTF-8)', async () => {
    const db = databases[0]!.handle.db;
    await valuesTable(db);
    await sameAsIlike(db);
  });

  it('on Postgres with an ICU Turkish collation', async () => {
    const db = databases[1]!.handle.db;
    await valuesTable(db);
    // what keeps `i` and `I` out of the variants: here `I` lowers to `ı`, `İ` to `i`
    expect(await matched(db, sql`s ilike 'istanbul'`)).toEqual(['İstanbul']);
    await sameAsIlike(db);
  });

  it('on embedded PGlite', async () => {
    const db = drizzle(pglite!) as unknown as Database;
    await valuesTable(db);
    await sameAsIlike(db);
  });
});
