import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../infra/db/client.js';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import type { FieldCipher } from './cipher.js';
import { listScope } from '../items/listScope.js';
import { FORGET_STORED_JSON } from '../items/storedJson.js';

export interface ResealReport {
  lists: number;
  scanned: number;
  resealed: number;
}

interface Row {
  id: string;
  data: Record<string, unknown>;
  created_at: string;
}

/**
 * Key rotation, last step (docs/records.md): re-seals every encrypted value still under a
 * key from ENCRYPTION_OLD_KEYS with the current ENCRYPTION_KEY, in batches walked along
 * (schema_id, created_at, id), so the old key can then be dropped. Safe to run while the
 * service serves: a value changed meanwhile is left alone (that write sealed it with the
 * current key already), and running it again only finds what is left. `updated_at` is
 * not touched: the record's content does not change.
 */
export async function resealEncryptedValues(
  db: Database,
  cipher: FieldCipher,
  batchSize = 500,
): Promise<ResealReport> {
  const report: ResealReport = { lists: 0, scanned: 0, resealed: 0 };
  const lists = await queryRows<{ owner_id: number; id: string; fields: StoredField[] }>(
    db,
    sql`select owner_id, id, fields from list_schemas where deleted_at is null
        and fields @> '[{"is_encryptable": true}]'::jsonb`,
  );
  for (const list of lists) {
    report.lists++;
    const slugs = list.fields.filter((f) => f.is_encryptable).map((f) => f.slug);
    let after: { createdAt: string; id: string } | undefined;
    for (;;) {
      const rows: Row[] = await queryRows<Row>(
        db,
        sql`select id, data, created_at::text as created_at from list_items
            where ${listScope(list.owner_id, list.id)}
            ${after ? sql`and (created_at, id) > (${after.createdAt}::timestamptz, ${after.id})` : sql``}
            order by created_at, id limit ${batchSize}`,
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        report.scanned++;
        if (await resealRow(db, cipher, Number(list.owner_id), row, slugs)) report.resealed++;
      }
      const last = rows[rows.length - 1]!;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
  return report;
}

async function resealRow(
  db: Database,
  cipher: FieldCipher,
  ownerId: number,
  row: Row,
  slugs: string[],
) {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const slug of slugs) {
    const value = row.data[slug];
    if (!cipher.isEnvelope(value) || !cipher.needsReseal(value)) continue;
    before[slug] = value;
    after[slug] = cipher.encrypt(cipher.decrypt(value));
  }
  if (Object.keys(after).length === 0) return false;
  const updated = await queryRows<{ id: string }>(
    db,
    sql`update list_items set data = data || ${JSON.stringify(after)}::jsonb${FORGET_STORED_JSON}
        where owner_id = ${ownerId} and id = ${row.id} and data @> ${JSON.stringify(before)}::jsonb returning id`,
  );
  return updated.length > 0;
}
