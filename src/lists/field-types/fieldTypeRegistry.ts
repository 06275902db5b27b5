import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { boolType } from './bool.js';
import { botType } from './bot.js';
import { contactType } from './contact.js';
import { dateType } from './date.js';
import { datetimeType } from './datetime.js';
import type { FieldType } from './fieldType.js';
import { fileType } from './file.js';
import { imageType } from './image.js';
import { moneyType } from './money.js';
import { numberType } from './number.js';
import { stringType } from './string.js';

/** Every field type of the field shape, by name. To add a type: one file and one line here. */
export const fieldTypes: ReadonlyMap<string, FieldType> = new Map(
  [
    stringType,
    numberType,
    boolType,
    dateType,
    datetimeType,
    moneyType,
    fileType,
    imageType,
    contactType,
    botType,
  ].map((t) => [t.name, t]),
);

/** the field shape: the names of the field types, as the parameter schemas and the document list them. */
export const FIELD_TYPES = [...fieldTypes.keys()] as [string, ...string[]];

/** The type of a stored field; a list can only hold known types, so a miss is a bug. */
export function fieldTypeOf(field: Pick<StoredField, 'type' | 'slug'>): FieldType {
  const type = fieldTypes.get(field.type);
  if (!type) throw new Error(`field ${field.slug} has unknown type ${field.type}`);
  return type;
}
