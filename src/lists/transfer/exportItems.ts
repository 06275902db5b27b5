import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../infra/db/client.js';
import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import { JsonText, type OrderedObject } from '../../shared/orderedJson.js';
import { compileWhere } from '../filters/compile.js';
import { fieldExpression } from '../filters/columns.js';
import type { Sort } from '../filters/query.js';
import { itemQuery } from '../items/listRead.js';
import type { ListsContext } from '../context.js';
import { toPageRow, type StoredItemRow } from '../items/foundItem.js';
import { presentItem } from '../items/listItemPresenter.js';
import { recordColumns, writtenRecordJson, writtenRecords } from '../items/recordJson.js';

/** Records fetched at a time. */
const PAGE = 2000;

/** One stretch of the order: the rows it covers, what they are ordered by, and which way. */
interface Stretch {
  where?: SQL;
  key: SQL;
  direction: 'asc' | 'desc';
}

/**
 * The stretches of a sort, as getListItems orders (compileSort): by a field, records with a
 * value first, then those without in insertion order; `id` breaks ties in both.
 */
function stretchesOf(sort: Sort): Stretch[] {
  if (sort.by !== 'field')
    return [{ key: sql`${sql.identifier(sort.by)}`, direction: sort.direction }];
  const value = fieldExpression(sort.field, sort.kind);
  return [
    { where: sql`${value} is not null`, key: value, direction: sort.direction },
    { where: sql`${value} is null`, key: sql`created_at`, direction: sort.direction },
  ];
}

/** A record as the export hands it on: its fields, or its JSON as Postgres wrote it. */
export type ExportedItem = OrderedObject | JsonText;

/**
 * `lists export`: every record of the list matching `filters` (getListItems' filters), in
 * `orderBy`'s order, as getListItems shows it (encrypted values decrypted), handed to
 * `write` one by one. With `asJson` (an NDJSON export), records Postgres can write come as
 * their JSON text, the bytes getListItems answers (recordJson.ts), the rest as their fields;
 * without it every record comes as its fields (a CSV export needs the values).
 *
 * A cursor per stretch of the order, fetched a page at a time: Postgres walks the order's
 * index once (a fast-start plan; no OFFSET, no sort of the whole list), so memory and the
 * cost per page stay flat; the next page is read while one is written. All pages read one
 * snapshot (a read-only repeatable-read transaction), so the export is consistent even while
 * the list is written to. Returns how many were written.
 */
export async function exportItems(
  lists: Pick<ListsContext, 'db' | 'cipher'>,
  list: ListSchemaRow,
  options: { filters?: unknown; orderBy?: unknown; asJson?: boolean },
  write: (item: ExportedItem) => Promise<void>,
): Promise<number> {
  const query = itemQuery(list, options);
  const where = compileWhere(query);
  const record = options.asJson ? writtenRecordJson(list) : undefined;
  return lists.db.transaction(
    async (tx) => {
      const db = tx as Database;
      let written = 0;
      for (const stretch of stretchesOf(query.sort)) {
        const scoped = stretch.where ? sql`${where} and ${stretch.where}` : where;
        const dir = sql.raw(stretch.direction);
        const ordered = sql`select ${recordColumns(record)} from list_items
          where ${scoped} order by ${stretch.key} ${dir}, id ${dir}`;
        await db.execute(
          sql`declare export_items no scroll cursor for ${writtenRecords(ordered, record)}`,
        );
        const fetchPage = () =>
          queryRows<StoredItemRow>(db, sql`fetch ${sql.raw(String(PAGE))} from export_items`);
        let next = fetchPage();
        for (;;) {
          const rows = await next;
          // Postgres reads the next page while this one is presented and written
          if (rows.length === PAGE) next = fetchPage();
          for (const row of rows.map(toPageRow)) {
            await write(
              'json' in row ? new JsonText(row.json) : presentItem(list.fields, row, lists.cipher),
            );
            written++;
          }
          if (rows.length < PAGE) break;
        }
        await db.execute(sql`close export_items`);
      }
      return written;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
