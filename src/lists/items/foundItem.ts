import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { slotsOf, type SlotValues } from './itemSlots.js';
import { instantOf } from '../field-types/instant.js';

/** A list item as read back from its row. */
export interface ItemRow {
  id: string;
  /** what `list_items.data` holds; with `slots`, the fields without a slot (itemSlots.ts) */
  data: Record<string, unknown>;
  /** the record's slot columns, as read; absent where `data` holds every value */
  slots?: SlotValues;
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

/** A list item row as raw SQL returns it, with its slot columns (itemSlots.ts). */
export interface StoredItemRow extends SlotValues {
  id: string;
  data: Record<string, unknown>;
  created_at: Date | string;
  updated_at: Date | string;
  /** a page's record as Postgres wrote it (recordJson.ts), where it did */
  json?: string | null;
}

/** node-postgres parses timestamptz into a Date; PGlite too, but a string is accepted. */
export function toItemRow(row: StoredItemRow): ItemRow {
  const slots = slotsOf(row as unknown as Record<string, unknown>);
  return {
    id: row.id,
    data: row.data,
    ...(slots ? { slots } : {}),
    createdAt: instantOf(row.created_at),
    updatedAt: instantOf(row.updated_at),
  };
}

/** A record Postgres wrote (recordJson.ts; its id kept for the page's bookkeeping). */
export interface WrittenRecord {
  id: string;
  json: string;
}

/** A record of a page: written by Postgres (recordJson.ts), or a row Node writes. */
export type PageRow = ItemRow | WrittenRecord;

export function toPageRow(row: StoredItemRow): PageRow {
  return typeof row.json === 'string' ? { id: row.id, json: row.json } : toItemRow(row);
}
