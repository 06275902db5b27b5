import type { ListSchemaRow, StoredField } from '../../infra/db/schema/listSchemas.js';
import { OrderedObject } from '../../shared/orderedJson.js';
import { DEFAULT_CURRENCY } from './currencies.js';

/** the field shape: a field definition as the API shows it (the storage slot stays internal). */
export function presentField(field: StoredField) {
  return {
    name: field.name,
    type: field.type,
    ...(field.type === 'money' ? { currency: field.currency ?? DEFAULT_CURRENCY } : {}),
    is_required: field.is_required,
    is_hidden: field.is_hidden,
    is_encryptable: field.is_encryptable,
  };
}

/**
 * the list schema shape: a list schema. `fields` keeps the order the fields were sent in, even for
 * all-digit slugs that a plain object would move to the front.
 */
export function presentListSchema(list: ListSchemaRow) {
  return {
    id: list.id,
    fields: new OrderedObject(list.fields.map((f) => [f.slug, presentField(f)] as const)),
    name: list.name,
    bot_id: list.botId ?? null,
    project: list.projectUuid,
    is_menu: list.isMenu,
    created_at: list.createdAt.toISOString(),
    updated_at: list.updatedAt.toISOString(),
  };
}
