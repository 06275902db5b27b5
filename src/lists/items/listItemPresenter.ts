import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { JsonText, OrderedObject, stringifyJson } from '../../shared/orderedJson.js';
import type { FieldCipher } from '../encryption/cipher.js';
import type { FieldType } from '../field-types/fieldType.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import { isSlotColumn, type SlotColumn } from '../slots.js';
import type { ItemRow } from './foundItem.js';

/**
 * A record as the list item shape shows it: `id`, one key per list field in field order (hidden and
 * encrypted fields included, decrypted; `null` when empty), `contact_id` / `bot_id` when
 * the list's first contact / bot field has a value (docs/decisions.md), then the timestamps.
 */

/** What presenting a field needs, worked out once for a list's fields, not once a record. */
export interface FieldPlan {
  field: StoredField;
  type: FieldType;
  /** where the value lives when the record has slots (items/itemSlots.ts) */
  slot: SlotColumn | undefined;
  /** set on the list's first contact field and first bot field: the link it answers */
  link: 'contact_id' | 'bot_id' | undefined;
}

export function planOf(fields: readonly StoredField[]): FieldPlan[] {
  const linked = new Set<string>();
  return fields.map((field) => {
    const type = fieldTypeOf(field);
    const link = type.references ? (`${type.references}_id` as const) : undefined;
    const first = link !== undefined && !linked.has(link);
    if (link) linked.add(link);
    return {
      field,
      type,
      slot: isSlotColumn(field.slot) ? field.slot : undefined,
      link: first ? link : undefined,
    };
  });
}

/**
 * A field's value as answered: from its slot when the slot holds one, else from `data`
 * (itemSlots.ts, storedValueOf), decrypted when it was sealed, rendered by its type.
 */
function fieldValue(plan: FieldPlan, row: ItemRow, cipher: FieldCipher): unknown {
  const slot = plan.slot && row.slots ? row.slots[plan.slot] : undefined;
  const raw =
    slot !== null && slot !== undefined ? plan.type.fromSlot(slot) : row.data[plan.field.slug];
  if (raw === undefined || raw === null) return null;
  // A decryption failure (a retired key that was removed) must be loud, never a silent null.
  const stored =
    plan.field.is_encryptable && cipher.isEnvelope(raw) ? JSON.parse(cipher.decrypt(raw)) : raw;
  return stored === null ? null : plan.type.render(stored, plan.field);
}

/**
 * The record as an object. OrderedObject keeps field order even for all-digit slugs.
 */
export function presentItem(
  fields: readonly StoredField[],
  row: ItemRow,
  cipher: FieldCipher,
): OrderedObject {
  const entries: [string, unknown][] = [['id', row.id]];
  const linked: { contact_id?: unknown; bot_id?: unknown } = {};
  for (const plan of planOf(fields)) {
    const value = fieldValue(plan, row, cipher);
    entries.push([plan.field.slug, value]);
    if (plan.link) linked[plan.link] = value;
  }
  if (linked.contact_id != null) entries.push(['contact_id', linked.contact_id]);
  if (linked.bot_id != null) entries.push(['bot_id', linked.bot_id]);
  entries.push(['created_at', row.createdAt.toISOString()]);
  entries.push(['updated_at', row.updatedAt.toISOString()]);
  return new OrderedObject(entries);
}

/** A value's JSON as a key of an object writes it; undefined where the key is left out. */
function jsonOf(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      return value === null ? 'null' : stringifyJson(value);
  }
}

/**
 * The records of a page written as JSON text, byte for byte `stringifyJson(presentItem(…))`
 * (a test compares them). A page presents up to 1,000 records of the same fields: the fields
 * are worked out once, and each record goes straight to its text, without the entries, the
 * object and the walk JSON.stringify makes of it (the half of presenting a page: its bench in
 * docs/benchmarks.md, "Writing a page's records"). `remembered`: the texts will be kept
 * (readCache.ts).
 */
export function itemWriter(
  fields: readonly StoredField[],
  cipher: FieldCipher,
  remembered = false,
): (row: ItemRow) => JsonText {
  const plans = planOf(fields);
  // `,"<slug>":`, each field's key as the text writes it
  const keys = plans.map((plan) => `,${JSON.stringify(plan.field.slug)}:`);
  return (row) => {
    let text = `{"id":${JSON.stringify(row.id)}`;
    let contact: unknown = null;
    let bot: unknown = null;
    for (let i = 0; i < plans.length; i++) {
      const plan = plans[i]!;
      const value = fieldValue(plan, row, cipher);
      const json = jsonOf(value);
      if (json !== undefined) text += keys[i]! + json;
      if (plan.link === 'contact_id') contact = value;
      else if (plan.link === 'bot_id') bot = value;
    }
    const contactJson = contact == null ? undefined : jsonOf(contact);
    if (contactJson !== undefined) text += `,"contact_id":${contactJson}`;
    const botJson = bot == null ? undefined : jsonOf(bot);
    if (botJson !== undefined) text += `,"bot_id":${botJson}`;
    text += `,"created_at":${JSON.stringify(row.createdAt.toISOString())}`;
    text += `,"updated_at":${JSON.stringify(row.updatedAt.toISOString())}}`;
    // Built by `+=`, the text is a tree of its pieces, 3.7 times the size of the flat string
    // (1,426 bytes against 382 a record of the sweep's). Answered at once that costs nothing;
    // a remembered one is made flat (reading a character does it, and the check keeps the
    // read from being optimized away), at about 6 µs a record.
    if (remembered && text.charCodeAt(0) !== 123) throw new Error(`not a record: ${text}`);
    return new JsonText(text);
  };
}
