import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSchemas } from '../../src/infra/db/schema/listSchemas.js';
import { NotFoundError } from '../../src/shared/errors.js';
import { FieldsChanged, insertItemRow, updateItemRow } from '../../src/lists/items/itemRows.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { itemCount, makeList, markListDeleted, rawRecord } from '../helpers/lists.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

/** The insert statement's guards: counter and record go together, or neither does. */
let t: TestApp;
let owner: Tenant;

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  owner = await makeTenant(t.db);
});
afterAll(() => t.close());

const changes = { data: { a: 'x' }, slots: { t1: 'x' } };

describe('insertItemRow (addListItem: the record and the list counter together)', () => {
  it('writes the record, its slot and the counter together', async () => {
    const list = await makeList(t.db, owner, [{ slug: 'a', type: 'string' }]);
    const row = await insertItemRow(
      t.db,
      owner.accountId,
      list.id,
      list.fields,
      changes,
      new Date('2024-01-01T00:00:00Z'),
    );
    expect(await itemCount(t.db, list.id)).toBe(1);
    expect(await rawRecord(t.db, row.id)).toMatchObject({ t1: 'x', data: { a: 'x' } });
  });

  it('inserts nothing and reports FieldsChanged when the fields moved after validation', async () => {
    const list = await makeList(t.db, owner, [{ slug: 'a', type: 'string' }]);
    const moved = [{ ...list.fields[0]!, slot: 't2' }];
    await t.db.update(listSchemas).set({ fields: moved }).where(eq(listSchemas.id, list.id));
    await expect(
      insertItemRow(t.db, owner.accountId, list.id, list.fields, changes, new Date()),
    ).rejects.toBeInstanceOf(FieldsChanged);
    expect(await itemCount(t.db, list.id)).toBe(0);
  });

  it('inserts nothing and answers 404 when the list was deleted meanwhile', async () => {
    const list = await makeList(t.db, owner, [{ slug: 'a', type: 'string' }]);
    await markListDeleted(t.db, list.id);
    const err = await insertItemRow(
      t.db,
      owner.accountId,
      list.id,
      list.fields,
      changes,
      new Date(),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).param).toBe('schema_id');
    expect(await itemCount(t.db, list.id)).toBe(0);
  });

  it('updates nothing when the fields moved after validation (the caller validates again)', async () => {
    const list = await makeList(t.db, owner, [{ slug: 'a', type: 'string' }]);
    const row = await insertItemRow(
      t.db,
      owner.accountId,
      list.id,
      list.fields,
      changes,
      new Date(),
    );
    const moved = [{ ...list.fields[0]!, slot: 't2' }];
    await t.db.update(listSchemas).set({ fields: moved }).where(eq(listSchemas.id, list.id));
    const update = { data: { a: 'y' }, slots: { t1: 'y' } };
    expect(
      await updateItemRow(t.db, owner.accountId, row.id, list.fields, update, new Date()),
    ).toBeUndefined();
    expect(await rawRecord(t.db, row.id)).toMatchObject({ t1: 'x', data: { a: 'x' } });
    expect(
      await updateItemRow(
        t.db,
        owner.accountId,
        row.id,
        moved,
        { data: { a: 'y' }, slots: { t2: 'y' } },
        new Date(),
      ),
    ).toMatchObject({ data: { a: 'y' } });
  });

  it('keeps the counter exact under 40 concurrent adds and deletes of one list', async () => {
    const list = await makeList(t.db, owner, [{ slug: 'a', type: 'string' }]);
    const adds = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(
          t.app,
          'addListItem',
          { schema_id: list.id, data: { a: String(i) } },
          { key: owner.apiKey },
        ),
      ),
    );
    expect(adds.every((r) => r.status === 201)).toBe(true);
    expect(await itemCount(t.db, list.id)).toBe(40);
    const doomed = adds.slice(0, 15).map((r) => r.body.data.id as string);
    // every record deleted twice at once: exactly one of each pair succeeds
    const deletes = await Promise.all(
      [...doomed, ...doomed].map((id) =>
        call(t.app, 'deleteListItem', { item_id: id }, { key: owner.apiKey }),
      ),
    );
    expect(deletes.filter((r) => r.status === 204)).toHaveLength(15);
    expect(deletes.filter((r) => r.status === 404)).toHaveLength(15);
    expect(await itemCount(t.db, list.id)).toBe(25);
  });
});
