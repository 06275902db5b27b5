import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import { compileSort, compileWhere } from '../../src/lists/filters/compile.js';
import type { ItemQuery } from '../../src/lists/filters/query.js';
import { pageQuery } from '../../src/lists/items/pageQueries.js';
import { itemQueryOn } from './itemQuery.js';
import type { TestList } from './lists.js';

/** getListItems' parsed query on a test list (its owner and id in the scope). */
export function listQuery(
  list: TestList,
  filters: Record<string, string>,
  orderBy?: string,
): ItemQuery {
  return { ...itemQueryOn(list.fields, filters, orderBy), ownerId: list.ownerId, listId: list.id };
}

/** The statement of a 50-record page of a list's first sort segment, as selectPage sends it unnamed. */
export function firstSegmentPage(
  list: TestList,
  filters: Record<string, string>,
  orderBy: string,
  offset: number,
  onePass: boolean,
): SQL {
  const query = listQuery(list, filters, orderBy);
  const where = compileWhere(query);
  const first = compileSort(query.sort)[0]!;
  return pageQuery(
    query,
    first.where ? sql`${where} and ${first.where}` : where,
    first.orderBy,
    50,
    offset,
    onePass,
  );
}

/** EXPLAIN's text of a statement. */
export async function planText(db: Database, query: SQL): Promise<string> {
  const rows = await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain ${query}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}
