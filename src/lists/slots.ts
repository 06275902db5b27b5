import type { StoredField } from '../infra/db/schema/listSchemas.js';

/**
 * Typed slot columns of list_items (design: shared/design/record-storage.md). A field gets
 * a free slot of its family when it is created, in field order; deleting a field frees
 * its slot once its values are cleared. Fields without a slot fall back to JSONB.
 */
export const SLOT_FAMILIES = {
  text: ['t1', 't2', 't3'],
  numeric: ['n1', 'n2', 'n3'],
  time: ['d1', 'd2'],
} as const;

export type SlotColumn =
  (typeof SLOT_FAMILIES)[keyof typeof SLOT_FAMILIES][number] | 'contact_id' | 'bot_id';

/** Which family each field type's values are indexed in; file and image are never indexed. */
const FAMILY_OF_TYPE: Record<string, keyof typeof SLOT_FAMILIES | undefined> = {
  string: 'text',
  number: 'numeric',
  money: 'numeric',
  bool: 'numeric',
  contact: 'numeric',
  bot: 'numeric',
  date: 'time',
  datetime: 'time',
};

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
  const family = FAMILY_OF_TYPE[field.type];
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
