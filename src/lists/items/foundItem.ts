import type { StoredField } from '../../infra/db/schema/listSchemas.js';

/** A list item as read back from its row. */
export interface ItemRow {
  id: string;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** A list item with the id, owner and fields of its list. */
export interface FoundItem {
  record: ItemRow;
  schemaId: string;
  ownerId: number;
  fields: StoredField[];
}

/** A list item row as raw SQL returns it. */
export interface StoredItemRow {
  id: string;
  data: Record<string, unknown>;
  created_at: Date | string;
  updated_at: Date | string;
}

/** node-postgres parses timestamptz into a Date; PGlite too, but a string is accepted. */
export function toItemRow(row: StoredItemRow): ItemRow {
  const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
  return {
    id: row.id,
    data: row.data,
    createdAt: asDate(row.created_at),
    updatedAt: asDate(row.updated_at),
  };
}
