import type { listItems } from '../../db/schema/listItems.js';
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

export function isSlotColumn(name: string | undefined): name is SlotColumn {
  return name !== undefined && Object.hasOwn(SLOT_PROPERTY, name);
}

/** The slot text of a field type, in the JS form drizzle binds for that column. */
export function slotBinding(slot: SlotColumn, text: string): string | number | Date {
  if (TIME_SLOTS.has(slot)) return new Date(text);
  if (INTEGER_SLOTS.has(slot)) return Number(text);
  return text;
}
