import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { listItemStatements } from '../helpers/sentStatements.js';
import { addFieldViaApi, cityPriceListViaApi } from '../helpers/viaApi.js';

/**
 * A remembered page is carried across writes that did not touch its selection (a record that
 * matched the filter neither before nor after the write): the read advances the total and
 * answers the page it read before, without reading it again (src/lists/items/listRead.ts,
 * carryPages). A write that touches the selection has the page read again. Every answer is
 * compared with the same read on an instance that remembers nothing.
 */
const sent = listItemStatements();

let t: TestApp;
let writer: TestApp;
let fresh: TestApp;
let owner: Tenant;

beforeAll(async () => {
  const env = { RATE_LIMIT_PER_MINUTE: '100000' };
  t = await startTestApp({ env });
  // writes reach the reading instance only through Postgres, as from another instance
  writer = await startTestApp({ database: t.database, env });
  fresh = await startTestApp({ database: t.database, env: { ...env, LIST_CACHE_ROWS: '0' } });
  owner = await makeTenant(t.db);
});
afterAll(async () => {
  await fresh.close();
  await writer.close();
  await t.close();
});

const READ = { filters: { city: 'Oslo', price: '>,10' }, order_by: 'price,desc', limit: 3 };

/** The read on `app`, and how its page was had: read, or answered as remembered. */
async function readPage(app: TestApp, schemaId: string, page = 1) {
  sent.length = 0;
  const res = await call(
    app.app,
    'getListItems',
    { schema_id: schemaId, ...READ, page },
    { key: owner.apiKey },
  );
  expect(res.status).toBe(200);
  // the advance of a total names the snapshot; any other statement on the records reads them
  const pageRead = sent.some((s) => !/pg_visible_in_snapshot/.test(s));
  return { body: res.body as unknown, pageRead };
}

/** The read on `t`, checked against an instance that remembers nothing. */
async function readChecked(schemaId: string, page = 1) {
  const read = await readPage(t, schemaId, page);
  expect(read.body).toEqual((await readPage(fresh, schemaId, page)).body);
  return read.pageRead;
}

async function write(method: string, params: Record<string, unknown>) {
  const res = await call(writer.app, method, params, { key: owner.apiKey });
  expect(res.status).toBeLessThan(300);
  return (res.body as { data: { id: string } } | undefined)?.data;
}

const makeList = () => cityPriceListViaApi(t.app, owner);

describe('pages between writes', () => {
  it('answers the page it read before across writes that land outside its selection', async () => {
    const list = await makeList();
    expect(await readChecked(list)).toBe(true);
    expect(await readChecked(list)).toBe(false);

    // a record that does not match, created; one that matched neither before nor after, changed
    const outside = await write('addListItem', {
      schema_id: list,
      data: { city: 'Bergen', price: 60 },
    });
    expect(await readChecked(list)).toBe(false);
    await write('updateListItem', { schema_id: list, item_id: outside!.id, data: { price: 5 } });
    await write('addListItem', { schema_id: list, data: { city: 'Oslo', price: 2 } });
    expect(await readChecked(list)).toBe(false);
    await write('deleteListItem', { schema_id: list, item_id: outside!.id });
    expect(await readChecked(list)).toBe(false);
    // the second page, read once, is carried as well
    expect(await readChecked(list, 2)).toBe(true);
    await write('addListItem', { schema_id: list, data: { city: 'Bergen', price: 99 } });
    expect(await readChecked(list, 2)).toBe(false);
    expect(await readChecked(list)).toBe(false);
  });

  it('reads the page again after a write that touches its selection', async () => {
    const list = await makeList();
    expect(await readChecked(list)).toBe(true);
    // a match created (it tops the page)
    const top = await write('addListItem', { schema_id: list, data: { city: 'Oslo', price: 80 } });
    expect(await readChecked(list)).toBe(true);
    expect(await readChecked(list)).toBe(false);
    // a match changed, still matching; then out of the selection; then back in
    await write('updateListItem', { schema_id: list, item_id: top!.id, data: { price: 81 } });
    expect(await readChecked(list)).toBe(true);
    await write('updateListItem', { schema_id: list, item_id: top!.id, data: { city: 'Bergen' } });
    expect(await readChecked(list)).toBe(true);
    await write('updateListItem', { schema_id: list, item_id: top!.id, data: { city: 'Oslo' } });
    expect(await readChecked(list)).toBe(true);
    // a match far below the page still changes the selection (its total, the later pages)
    const low = await write('addListItem', { schema_id: list, data: { city: 'Oslo', price: 11 } });
    expect(await readChecked(list)).toBe(true);
    await write('deleteListItem', { schema_id: list, item_id: low!.id });
    expect(await readChecked(list)).toBe(true);
    // in and out between two reads: it matches neither before nor after, so the page stands
    const brief = await write('addListItem', {
      schema_id: list,
      data: { city: 'Bergen', price: 40 },
    });
    expect(await readChecked(list)).toBe(false);
    await write('updateListItem', { schema_id: list, item_id: brief!.id, data: { city: 'Oslo' } });
    await write('updateListItem', {
      schema_id: list,
      item_id: brief!.id,
      data: { city: 'Bergen' },
    });
    expect(await readChecked(list)).toBe(false);
  });

  it('carries pages across batch writes outside the selection, and not across a field change', async () => {
    const list = await makeList();
    expect(await readChecked(list)).toBe(true);
    await write('addListItems', {
      schema_id: list,
      items: [
        { city: 'Bergen', price: 50 },
        { city: 'Oslo', price: 3 },
      ],
    });
    expect(await readChecked(list)).toBe(false);
    await addFieldViaApi(t.app, owner, list, {
      name: 'Note',
      slug: 'note',
      type: 'string',
      is_required: false,
    });
    // the records answer the new field now: the page is read again
    expect(await readChecked(list)).toBe(true);
    expect(await readChecked(list)).toBe(false);
  });
});
