import { isDeepStrictEqual } from 'node:util';
import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import type { FieldCipher } from '../encryption/cipher.js';
import { validateData } from '../items/validateData.js';

/**
 * Whether updating the record with `line` would change nothing: every value the line sends,
 * validated as updateListItem validates it, equals the stored one (an encrypted value
 * compared opened). A line that does not validate is not "held": the update reports it.
 */
export function holdsAlready(
  list: ListSchemaRow,
  stored: Record<string, unknown>,
  line: Record<string, unknown>,
  cipher: FieldCipher,
): boolean {
  let values;
  try {
    values = validateData(list.fields, line, 'update');
  } catch {
    return false;
  }
  for (const field of list.fields) {
    if (!values.has(field.slug)) continue;
    const sent = values.get(field.slug);
    const held = stored[field.slug];
    if (!field.is_encryptable) {
      if (!isDeepStrictEqual(held ?? null, sent ?? null)) return false;
      continue;
    }
    if (!cipher.isEnvelope(held)) {
      if ((held ?? null) === null && sent === null) continue;
      return false;
    }
    try {
      if (!isDeepStrictEqual(JSON.parse(cipher.decrypt(held)), sent)) return false;
    } catch {
      return false;
    }
  }
  return true;
}
