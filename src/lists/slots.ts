import type { listItems } from '../infra/db/schema/listItems.js';
import type { StoredField } from '../infra/db/schema/listSchemas.js';
import type { SlotFamily } from './field-types/fieldType.js';
import { fieldTypes } from './field-types/fieldTypeRegistry.js';

/**
 * Typed slot columns of list_items (docs/records.md), all of them listed here. A field gets
 * a free slot of its family when it is created, in field order; deleting a field frees
 * its slot once its values are cleared. Fields without a slot fall back to JSONB.
 */
export const SLOT_FAMILIES = {
  text: ['t1', 't2', 't3'],
  numeric: ['n1', 'n2', 'n3'],
  time: ['d1', 'd2'],
} as const satisfies Record<SlotFamily, readonly string[]>;

export type SlotColumn =
  (typeof SLOT_FAMILIES)[keyof typeof SLOT_FAMILIES][number] | 'contact_id' | 'bot_id';

/**
 * The slot for a new field, given the list's current fields. The first `contact` / `bot`
 * field takes the dedicated contact_id / bot_id column (it is also the record's top-level
 * `contact_id` / `bot_id`). Encrypted values are ciphertext, so they never get a slot.
 */
export function allocateSlot(
  field: Pick<StoredField, 'type' | 'is_encryptable'>,
  existing: readonly StoredField[],
): SlotColumn | undefined {
  if (field.is_encryptable) return undefined;
  const used = new Set(existing.map((f) => f.slot).filter(Boolean));
  if (field.type === 'contact' && !existing.some((f) => f.type === 'contact')) return 'contact_id';
  if (field.type === 'bot' && !existing.some((f) => f.type === 'bot')) return 'bot_id';
  const family = fieldTypes.get(field.type)?.slotFamily;
  if (!family) return undefined;
  return SLOT_FAMILIES[family].find((slot) => !used.has(slot));
}

/** Slots for a whole new list, allocated in field order. */
export function assignSlots<F extends Omit<StoredField, 'slot'>>(
  fields: readonly F[],
): (F & { slot?: SlotColumn })[] {
  const done: (F & { slot?: SlotColumn })[] = [];
  for (const field of fields) {
    const slot = allocateSlot(field, done as StoredField[]);
    done.push(slot ? { ...field, slot } : { ...field });
  }
  return done;
}

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

/** Every slot column, in one fixed order (SLOT_PROPERTY's). */
export const SLOT_COLUMNS = Object.keys(SLOT_PROPERTY) as readonly SlotColumn[];

const TIME_SLOTS: ReadonlySet<string> = new Set(SLOT_FAMILIES.time);
const TEXT_SLOTS: ReadonlySet<string> = new Set(SLOT_FAMILIES.text);
/** the two reference columns hold IDs, not the numeric family's decimals */
const INTEGER_SLOTS: ReadonlySet<string> = new Set(['contact_id', 'bot_id']);

export function isSlotColumn(name: string | null | undefined): name is SlotColumn {
  return typeof name === 'string' && Object.hasOwn(SLOT_PROPERTY, name);
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
