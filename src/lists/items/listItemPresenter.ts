import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { OrderedObject } from '../../shared/orderedJson.js';
import type { FieldCipher } from '../encryption/cipher.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import type { ItemRow } from './foundItem.js';
import { storedValueOf } from './itemSlots.js';

/** The stored value of a field, decrypted when it was sealed. */
function storedValue(field: StoredField, raw: unknown, cipher: FieldCipher): unknown {
  if (raw === undefined || raw === null) return null;
  // A decryption failure (a retired key that was removed) must be loud, never a silent null.
  if (field.is_encryptable && cipher.isEnvelope(raw)) return JSON.parse(cipher.decrypt(raw));
  return raw;
}

/**
 * A record as the list item shape shows it: `id`, one key per list field in field order (hidden and
 * encrypted fields included, decrypted; `null` when empty), `contact_id` / `bot_id` when
 * the list's first contact / bot field has a value (docs/decisions.md), then the timestamps.
 * OrderedObject keeps field order even for all-digit slugs.
 */
export function presentItem(
  fields: readonly StoredField[],
  row: ItemRow,
  cipher: FieldCipher,
): OrderedObject {
  const entries: [string, unknown][] = [['id', row.id]];
  const linked: { contact_id?: unknown; bot_id?: unknown } = {};
  for (const field of fields) {
    const type = fieldTypeOf(field);
    const stored = storedValue(field, storedValueOf(field, row.data, row.slots), cipher);
    const value = stored === null ? null : type.render(stored, field);
    entries.push([field.slug, value]);
    const link = type.references ? (`${type.references}_id` as const) : undefined;
    if (link && !(link in linked)) linked[link] = value;
  }
  if (linked.contact_id != null) entries.push(['contact_id', linked.contact_id]);
  if (linked.bot_id != null) entries.push(['bot_id', linked.bot_id]);
  entries.push(['created_at', row.createdAt.toISOString()]);
  entries.push(['updated_at', row.updatedAt.toISOString()]);
  return new OrderedObject(entries);
}
