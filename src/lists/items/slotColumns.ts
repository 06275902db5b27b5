import type { listItems } from '../../infra/db/schema/listItems.js';
import type { SlotColumn } from '../slots.js';

type ItemInsert = typeof listItems.$inferInsert;

/** Slot column (as StoredField.slot names it) → the drizzle property of list_items. */
export const SLOT_PROPERTY: Record<SlotColumn, keyof ItemInsert> = {
  t1: 't1',
  t2: 't2',
  t3: 't3',
  n1: 'n1',
  n2: 'n2',
  n3: 'n3',
  d1: 'd1',
  d2: 'd2',
  contact_id: 'contactId',
  bot_id: 'botId',
};

const TIME_SLOTS = new Set<string>(['d1', 'd2']);
const INTEGER_SLOTS = new Set<string>(['contact_id', 'bot_id']);
const TEXT_SLOTS = new Set<string>(['t1', 't2', 't3']);

export function isSlotColumn(name: string | undefined): name is SlotColumn {
  return name !== undefined && Object.hasOwn(SLOT_PROPERTY, name);
}

/** The slot text of a field type, in the JS form drizzle binds for that column. */
export function slotBinding(slot: SlotColumn, text: string): string | number | Date {
  if (TIME_SLOTS.has(slot)) return new Date(text);
  if (INTEGER_SLOTS.has(slot)) return Number(text);
  return text;
}

/** The SQL type a slot's text is cast to when bound as a parameter. */
export function slotSqlType(slot: SlotColumn): 'text' | 'numeric' | 'timestamptz' | 'bigint' {
  if (TIME_SLOTS.has(slot)) return 'timestamptz';
  if (INTEGER_SLOTS.has(slot)) return 'bigint';
  return TEXT_SLOTS.has(slot) ? 'text' : 'numeric';
}

/** Slot texts → drizzle `set`/`values` properties. */
export function slotProperties(slots: Partial<Record<SlotColumn, string>>) {
  const out: Record<string, string | number | Date> = {};
  for (const [slot, text] of Object.entries(slots) as [SlotColumn, string][]) {
    out[SLOT_PROPERTY[slot]] = slotBinding(slot, text);
  }
  return out;
}
