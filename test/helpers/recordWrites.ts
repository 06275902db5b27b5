import { beforeAll } from 'vitest';
import { call, type Transport } from './call.js';
import { makeList, type TestList } from './lists.js';
import type { FileApp } from './testAppForFile.js';
import { addItemViaApi } from './viaApi.js';

/**
 * The owner's list that the single-record write tests change records in (made before the
 * file's tests): two required fields, an optional one and a contact, and the calls they make.
 */
export function recordWritesForFile(t: FileApp<'owner'>) {
  const file = {} as { list: TestList };
  beforeAll(async () => {
    file.list = await makeList(t.db, t.owner, [
      { slug: 'title', type: 'string', is_required: true },
      { slug: 'qty', type: 'number', is_required: true },
      { slug: 'note', type: 'string' },
      { slug: 'who', type: 'contact' },
    ]);
  });
  return {
    /** a record added through addListItem, to `file.list` unless told */
    addOne: (data: Record<string, unknown> = { title: 'a', qty: 1 }, target?: TestList) =>
      addItemViaApi(t.app, t.owner, (target ?? file.list).id, data),
    update: (params: Record<string, unknown>, via: Transport = 'json', key = t.owner.apiKey) =>
      call(t.app, 'updateListItem', params, { key, via }),
    remove: (params: Record<string, unknown>, via: Transport = 'json', key = t.owner.apiKey) =>
      call(t.app, 'deleteListItem', params, { key, via }),
  };
}
