import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import type { FieldCipher } from '../encryption/cipher.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import { type SlotColumn, isSlotColumn } from '../slots.js';
import type { FieldValues } from './validateData.js';

export interface StoredChanges {
  /** slug → value for `list_items.data` (ciphertext for encrypted fields) */
  data: Record<string, unknown>;
  /** slot column → its text (see FieldType.toSlot), for the slotted fields written */
  slots: Partial<Record<SlotColumn, string>>;
}

/**
 * Validated values → what is written: `data` (the source of truth) and, in the same
 * statement, the slot column of each slotted field, so the two always agree. Encrypted
 * values are sealed as JSON text (the key id travels inside, for rotation) and never slotted.
 */
export function toStoredChanges(
  fields: readonly StoredField[],
  values: FieldValues,
  cipher: FieldCipher,
): StoredChanges {
  const data: Record<string, unknown> = {};
  const slots: Partial<Record<SlotColumn, string>> = {};
  for (const field of fields) {
    const value = values.get(field.slug);
    if (value === undefined) continue;
    if (field.is_encryptable) {
      data[field.slug] = cipher.encrypt(JSON.stringify(value));
      continue;
    }
    data[field.slug] = value;
    if (isSlotColumn(field.slot)) {
      slots[field.slot] = fieldTypeOf(field).toSlot(value);
    }
  }
  return { data, slots };
}
