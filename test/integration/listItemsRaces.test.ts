import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/admission/caller.js';
import { fromDomainError } from '../../src/http/httpErrors.js';
import { itemOutcomeBodies } from '../../src/http/itemOutcomeBodies.js';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import { sessionOf, type DrizzleSession } from '../../src/infra/db/statementText.js';
import type { ItemContext } from '../../src/lists/context.js';
import { createListsContext } from '../../src/lists/context.js';
import { addItem } from '../../src/lists/items/addItem.js';
import { addItems } from '../../src/lists/items/addItems.js';
import { updateItem } from '../../src/lists/items/updateItem.js';
import { updateItems } from '../../src/lists/items/updateItems.js';
import {
  ContendedError,
  domainErrors,
  NotFoundError,
  ValidationError,
} from '../../src/shared/domainErrors.js';
import { makeList, markListDeleted, storedValues, type TestList } from '../helpers/lists.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * Writes that meet a concurrent change between their look-up and their statement: a record
 * deleted meanwhile is answered as the order of the writes has it (the delete came first:
 * not found), and a list whose fields change under every attempt is a 503 to retry, never
 * a 500 or a 404 for a list that exists.
 */
let caller: Caller;

const t = testAppForFile({ tenants: ['owner'] });
beforeAll(async () => {
  caller = {
    accountId: t.owner.accountId,
    email: 'owner@example.test',
    name: 'owner',
    plan: 'pro',
    blocked: false,
    createdAt: new Date(),
  };
});

/**
 * `db`, with `before` run on the real database each time a write is about to start: before
 * every transaction, and before every single statement whose SQL `writes` matches, whether
 * sent by `db.execute` or through the session (queryRows, infra/db/statementText.ts).
 */
function racing(db: Database, before: () => Promise<unknown>, writes: RegExp): Database {
  const dialect = (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string } } }).dialect;
  const session = sessionOf(db)!;
  const racingSession: DrizzleSession = {
    dialect: session.dialect,
    prepareQuery: (query, ...rest) => {
      const prepared = session.prepareQuery(query, ...rest);
      return {
        execute: async () => {
          if (writes.test(query.sql)) await before();
          return prepared.execute();
        },
      };
    },
  };
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'transaction') {
        return async (...args: Parameters<Database['transaction']>) => {
          await before();
          return target.transaction(...args);
        };
      }
      if (prop === 'execute') {
        return async (query: SQL) => {
          if (writes.test(dialect.sqlToQuery(query).sql)) await before();
          return target.execute(query);
        };
      }
      if (prop === 'session') return racingSession;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function contextOn(db: Database): ItemContext {
  return { ...createListsContext(db, t.deps.cipher, () => new Date()), caller };
}

/** Renames the list's first field: its fields differ from what any write validated against. */
function renamingFields(list: TestList) {
  let renames = 0;
  return async () => {
    renames++;
    await t.db.execute(
      sql`update list_schemas set fields = jsonb_set(fields, '{0,name}', to_jsonb(${`renamed ${renames}`}::text))
          where id = ${list.id}`,
    );
    return renames;
  };
}

async function addRecords(list: TestList, values: string[]): Promise<string[]> {
  const { created } = await addItems(
    contextOn(t.db),
    list.id,
    values.map((a) => ({ a })),
    true,
  );
  return created.map((item) => String(new Map(item.entries).get('id')));
}

async function eventsOf(listId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from changes where schema_id = ${listId} and type = 'list_item.updated'`,
  );
  return row!.n;
}

describe('updateListItems: a record deleted after the look-up', () => {
  /** Records `k` and `g` of a new list, and a database deleting `g` as a batch's write starts. */
  async function twoRecordsOneDeletedOnWrite() {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const [keep, gone] = await addRecords(list, ['k', 'g']);
    const db = racing(
      t.db,
      () => t.db.execute(sql`delete from list_items where id = ${gone}`),
      /^$/,
    );
    return { list, keep, gone, db };
  }

  it('all-or-nothing: answers that item not found and writes nothing', async () => {
    const { list, keep, gone, db } = await twoRecordsOneDeletedOnWrite();
    const error = await updateItems(
      contextOn(db),
      list.id,
      [
        { itemId: keep!, data: { a: 'K' } },
        { itemId: gone!, data: { a: 'G' } },
      ],
      true,
    ).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual({
      'items.1.item_id': ['List item not found.'],
    });
    expect(await storedValues(t.db, keep!)).toMatchObject({ a: 'k' });
    expect(await eventsOf(list.id)).toBe(0);
  });

  it('item by item: writes the others, answers that item not found', async () => {
    const { list, keep, gone, db } = await twoRecordsOneDeletedOnWrite();
    const updated = await updateItems(
      contextOn(db),
      list.id,
      [
        { itemId: gone!, data: { a: 'G' } },
        { itemId: keep!, data: { a: 'K' } },
      ],
      false,
    );
    const outcomes = itemOutcomeBodies(updated.outcomes, (item) => ({ status: 200, data: item }));
    // as a record missing at the look-up is answered: 422 under items.<index>.item_id
    expect(outcomes[0]).toEqual({
      index: 0,
      status: 422,
      errors: { 'items.0.item_id': ['List item not found.'] },
    });
    expect(outcomes[1]).toMatchObject({ index: 1, status: 200 });
    expect(await storedValues(t.db, keep!)).toMatchObject({ a: 'K' });
    expect(await eventsOf(list.id)).toBe(1);
  });
});

describe('a list whose fields change under every attempt', () => {
  it('addListItem is a 503 to retry, with nothing written', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const rename = renamingFields(list);
    const db = racing(t.db, rename, /^insert into "list_items"|^with /);
    const error = await addItem(contextOn(db), list.id, { a: 'x' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ContendedError);
    expect(fromDomainError(error as ContendedError)).toMatchObject({
      status: 503,
      body: { error: 'service_unavailable' },
      headers: { 'retry-after': '1' },
    });
    expect(await rename()).toBeGreaterThanOrEqual(4);
    expect(await itemsIn(list.id)).toBe(0);
  });

  it('addListItems is a 503 to retry, with nothing written', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const db = racing(t.db, renamingFields(list), /^$/);
    const error = await addItems(contextOn(db), list.id, [{ a: 'x' }], true).catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ContendedError);
    expect(await itemsIn(list.id)).toBe(0);
  });

  it('updateListItem is a 503 while the record is there, a 404 once it is gone', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const [id] = await addRecords(list, ['a']);
    const db = racing(t.db, renamingFields(list), /^with /);
    const error = await updateItem(contextOn(db), id!, { a: 'b' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ContendedError);
    expect(await storedValues(t.db, id!)).toMatchObject({ a: 'a' });

    // the fields change twice, then the record is deleted before the last attempt's write
    const rename = renamingFields(list);
    let calls = 0;
    const deleting = racing(
      t.db,
      () => (++calls < 3 ? rename() : t.db.execute(sql`delete from list_items where id = ${id}`)),
      /^with /,
    );
    const gone = await updateItem(contextOn(deleting), id!, { a: 'b' }).catch(
      (err: unknown) => err,
    );
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(calls).toBe(3);
  });

  it('updateListItems is a 404 when the list is deleted at the last try', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const [id] = await addRecords(list, ['a']);
    const rename = renamingFields(list);
    let calls = 0;
    const db = racing(t.db, () => (++calls < 3 ? rename() : markListDeleted(t.db, list.id)), /^$/);
    const error = await updateOne(db, list, id!);
    expect(error).toEqual(domainErrors.listNotFound());
    expect(calls).toBe(3);
  });

  it('updateListItems is a 503 to retry, not a 404 for the list', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const [id] = await addRecords(list, ['a']);
    const db = racing(t.db, renamingFields(list), /^$/);
    const error = await updateOne(db, list, id!);
    expect(error).toBeInstanceOf(ContendedError);
    expect(await storedValues(t.db, id!)).toMatchObject({ a: 'a' });
  });
});

/** updateListItems of one record to `a: 'b'`, all or nothing, on `db`: its error, if any. */
function updateOne(db: Database, list: TestList, id: string): Promise<unknown> {
  return updateItems(contextOn(db), list.id, [{ itemId: id, data: { a: 'b' } }], true).catch(
    (err: unknown) => err,
  );
}

async function itemsIn(listId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from list_items where schema_id = ${listId}`,
  );
  return row!.n;
}
