/**
 * What getListItems accepts per field type: the operators of its filters, and whether
 * `order_by` may name it. Kept free of DOM and server imports so a unit test can hold it
 * against the server's field-type registry (test/unit/consoleFieldOperators.test.ts).
 */
export const FIELD_TYPE_NAMES = [
  'string',
  'number',
  'bool',
  'date',
  'datetime',
  'money',
  'file',
  'image',
  'contact',
  'bot',
] as const;

export type FieldTypeName = (typeof FIELD_TYPE_NAMES)[number];

const ORDERED = ['=', '!=', '<>', '<', '<=', '>', '>='] as const;

/** Types absent here (file, image) are skipped by filters and refused by order_by. */
export const OPERATORS_BY_TYPE: Readonly<Record<string, readonly string[]>> = {
  string: [...ORDERED, 'like', 'not like'],
  number: ORDERED,
  bool: ['=', '!=', '<>'],
  date: ORDERED,
  datetime: ORDERED,
  money: ORDERED,
  contact: ORDERED,
  bot: ORDERED,
};

export interface FilterableField {
  type: string;
  is_encryptable: boolean;
}

/** The operators a filter on this field may use; none for encrypted, file and image fields. */
export function operatorsFor(field: FilterableField): readonly string[] {
  if (field.is_encryptable) return [];
  return OPERATORS_BY_TYPE[field.type] ?? [];
}

/** Whether `order_by` accepts the field: the filterable ones, as the server decides. */
export function isSortable(field: FilterableField): boolean {
  return operatorsFor(field).length > 0;
}
