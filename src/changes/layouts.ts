import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';
import type { StoredField } from '../infra/db/schema/listSchemas.js';
import { BoundedMap } from '../shared/boundedMap.js';

const key = (schemaId: string, layout: number) => `${schemaId}:${layout}`;

/**
 * Field layouts of lists (list_layouts), remembered: a layout never changes once written, so
 * a remembered one is always right. At most `max` are kept; the oldest go first.
 */
export class LayoutCache {
  private readonly known: BoundedMap<string, StoredField[]>;

  constructor(max = 5_000) {
    this.known = new BoundedMap(max);
  }

  /** The layouts of `ownerId`'s `wanted` (schema id and layout number), read in one query if unknown. */
  async fieldsOf(
    db: Pick<Database, 'execute'>,
    ownerId: number,
    wanted: readonly { schemaId: string; layout: number }[],
  ): Promise<(schemaId: string, layout: number) => StoredField[] | undefined> {
    const found = new Map<string, StoredField[]>();
    const missing = new Map<string, { schemaId: string; layout: number }>();
    for (const w of wanted) {
      const k = key(w.schemaId, w.layout);
      const fields = this.known.get(k);
      if (fields) found.set(k, fields);
      else missing.set(k, w);
    }
    if (missing.size > 0) {
      const rows = await queryRows<{ schema_id: string; layout: number; fields: StoredField[] }>(
        db,
        sql`select l.schema_id, l.layout, l.fields from list_layouts l
            join jsonb_to_recordset(${JSON.stringify([...missing.values()])}::jsonb)
              as w("schemaId" text, layout int)
              on l.schema_id = w."schemaId" and l.layout = w.layout
            where l.owner_id = ${ownerId}`,
      );
      for (const row of rows) {
        const k = key(row.schema_id, Number(row.layout));
        found.set(k, row.fields);
        this.known.set(k, row.fields);
      }
    }
    return (schemaId, layout) => found.get(key(schemaId, layout));
  }
}
