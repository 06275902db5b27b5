import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import type { FieldCipher } from '../encryption/cipher.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import { type SlotColumn, isSlotColumn } from '../slots.js';
import type { FieldValues } from './validateData.js';

export interface StoredChanges {
  /** slug → stored value of every field written (ciphertext for encrypted fields) */
  data: Record<string, unknown>;
  /**
   * What `list_items.data` keeps of them: the fields without a slot (thin documents,
   * itemSlots.ts)
   */
  kept: Record<string, unknown>;
  /** the slugs whose values went to their slots instead (an update drops them from `data`) */
  slotted: string[];
  /** slot column → its text (see FieldType.toSlot), for the slotted fields written */
  slots: Partial<Record<SlotColumn, string>>;
}

/**
 * Validated values → what is written: each slotted field's value to its slot column, the
 * others to `data` (thin documents, itemSlots.ts). Encrypted values are sealed as JSON text
 * (the key id travels inside, for rotation) and never slotted.
 */
export function toStoredChanges(
  fields: readonly StoredField[],
  values: FieldValues,
  cipher: FieldCipher,
): StoredChanges {
  const data: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  const slotted: string[] = [];
  const slots: Partial<Record<SlotColumn, string>> = {};
  for (const field of fields) {
    const value = values.get(field.slug);
    if (value === undefined) continue;
    const stored = field.is_encryptable ? cipher.encrypt(JSON.stringify(value)) : value;
    data[field.slug] = stored;
    if (!field.is_encryptable && isSlotColumn(field.slot)) {
      slots[field.slot] = fieldTypeOf(field).toSlot(value);
      slotted.push(field.slug);
    } else kept[field.slug] = stored;
  }
  return { data, kept, slotted, slots };
}
