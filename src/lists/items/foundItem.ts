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
