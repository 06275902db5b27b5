import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import type { Operator, SqlKind } from '../field-types/fieldType.js';

/** One checked filter condition: the field exists, is filterable, the operand is normalised. */
export interface Condition {
  field: StoredField;
  kind: SqlKind;
  /** `<>` arrives here as `!=` */
  op: Exclude<Operator, '<>'>;
  /** bound parameter text (see FilterSupport.operand) */
  operand: string;
}

export type Direction = 'asc' | 'desc';

export type Sort =
  | { by: 'created_at' | 'updated_at'; direction: Direction }
  | { by: 'field'; field: StoredField; kind: SqlKind; direction: Direction };

/** Everything getListItems selects by, after parsing; the compiler's only input. */
export interface ItemQuery {
  /** the list's owner: named first in every statement (docs/scaling.md) */
  ownerId: number;
  listId: string;
  fields: readonly StoredField[];
  conditions: Condition[];
  /** getListItems `contact_id` / `bot_id`: records linked through any field of that type */
  links: { contact?: number; bot?: number };
  sort: Sort;
}

/** Whether the query selects by a contact or bot link (getListItems `contact_id` / `bot_id`). */
export function hasLinks(query: ItemQuery): boolean {
  return query.links.contact !== undefined || query.links.bot !== undefined;
}

/** Without order_by the order is undefined (getListItems); ours is insertion order. */
export const DEFAULT_SORT: Sort = { by: 'created_at', direction: 'asc' };
