import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, queryRows, type DatabaseHandle } from '../../src/infra/db/client.js';
import { queryShapeRows } from '../../src/infra/db/shapeStatements.js';
import { MAX_SHAPE_STATEMENTS, shapeName } from '../../src/infra/db/statementNames.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { TEST_CITUS_URL } from '../helpers/env.js';
import { preparedShapes as heldShapes } from '../helpers/preparedShapes.js';

/**
 * Statements sent under their shape's name (infra/db/shapeStatements.ts): a connection parses
 * a shape once, Postgres keeps one plan for its values, and a connection keeps at most
 * MAX_SHAPE_STATEMENTS of them. One connection, so that what it holds can be asked of it. On
 * Citus (TEST_CITUS_URL) the reads go unnamed; the bound on a connection's names holds there
 * too.
 */
let database: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectPostgres(database.url, pino({ level: 'silent' }), { max: 1 });
  await handle.db.execute(sql`create table shapes (k int primary key, v text not null)`);
  await handle.db.execute(
    sql`insert into shapes select k, 'v' || (k % 100) from generate_series(1, 5000) k`,
  );
  await handle.db.execute(sql`create index on shapes (v)`);
  await handle.db.execute(sql`analyze shapes`);
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

const preparedShapes = () => heldShapes(handle.db);
/** What the pool's own connection holds (namedCountOf names its statements there). */
const poolShapes = () => heldShapes(handle.db, 'pool');

/** A count of one shape: `shape` changes the statement's text, `value` only its parameter. */
function countOf(shape: number, value: string) {
  return queryShapeRows<{ n: number }>(handle.db, countQuery(shape, value));
}

const countQuery = (shape: number, value: string) =>
  sql`select count(*)::int as n, ${sql.raw(String(shape))} as shape from shapes where v = ${value}`;

/** The same count sent under its shape's name on any engine: what the pool's bound sees. */
async function namedCountOf(shape: number, value: string): Promise<{ n: number }[]> {
  const built = new PgDialect().sqlToQuery(countQuery(shape, value));
  const { rows } = await handle.pool!.query<{ n: number }>({
    name: shapeName(built.sql),
    text: built.sql,
    values: built.params,
  });
  return rows;
}

describe('statements sent under their shape', () => {
  it('are prepared once a connection and come to run on one kept plan, answering each value', async () => {
    for (let i = 0; i < 10; i++) {
      const [row] = await countOf(0, `v${i}`);
      expect(row!.n).toBe(50);
    }
    const [none] = await countOf(0, 'nothing');
    expect(none!.n).toBe(0);
    const shapes = await preparedShapes();
    if (TEST_CITUS_URL) {
      // not measured on the cluster: parsed and planned each time, as before
      expect(shapes).toHaveLength(0);
      return;
    }
    expect(shapes).toHaveLength(1);
    // on sessions that keep one plan for any value (keptPlans.ts): never one for the values
    expect(shapes[0]!.custom_plans).toBe(0);
    expect(shapes[0]!.generic_plans).toBe(11);
  });

  it(`keeps at most ${MAX_SHAPE_STATEMENTS} a connection, dropping the least recently used`, async () => {
    await namedCountOf(0, 'v1');
    const first = (await poolShapes()).map((s) => s.name)[0];
    for (let shape = 1; shape <= MAX_SHAPE_STATEMENTS + 10; shape++) {
      // shape 0 used between the others stays among the recent ones
      if (shape % 8 === 0) await namedCountOf(0, 'v1');
      const [row] = await namedCountOf(shape, 'v3');
      expect(row!.n).toBe(50);
    }
    const after = (await poolShapes()).map((s) => s.name);
    expect(after).toHaveLength(MAX_SHAPE_STATEMENTS);
    expect(after).toContain(first);
    // shape 1, the least recently used, was dropped; it is prepared again when it comes back
    const [again] = await namedCountOf(1, 'v7');
    expect(again!.n).toBe(50);
    expect(await poolShapes()).toHaveLength(MAX_SHAPE_STATEMENTS);
  });

  it('go unnamed behind a transaction pooler (PG_PREPARED_STATEMENTS=off)', async () => {
    const pooled = connectPostgres(database.url, pino({ level: 'silent' }), {
      max: 1,
      preparedStatements: false,
    });
    try {
      const [row] = await queryShapeRows<{ n: number }>(
        pooled.db,
        sql`select count(*)::int as n from shapes where v = ${'v5'}`,
      );
      expect(row!.n).toBe(50);
      const [held] = await queryRows<{ n: number }>(
        pooled.db,
        sql`select count(*)::int as n from pg_prepared_statements`,
      );
      expect(held!.n).toBe(0);
    } finally {
      await pooled.close();
    }
  });
});
