import { booleanFrom } from '../../shared/paramTypes.js';
import { accept, reject, type FieldType, type Parsed } from './fieldType.js';
import { boolJson } from './jsonInSql.js';

/** getListItems: `true`, `false`, `"true"`, `"false"`, `1`, `0` (and "1"/"0", as GET sends them). */
export function parseBool(input: unknown): Parsed<boolean> {
  const value = booleanFrom(input);
  return value === undefined ? reject('must be true or false') : accept(value);
}

/** `bool`: stored as a JSON boolean; its numeric slot holds 1/0, so false sorts first. */
export const boolType: FieldType = {
  name: 'bool',
  slotFamily: 'numeric',
  parse: parseBool,
  toSlot: (stored) => (stored === true ? '1' : '0'),
  fromSlot: (slot) => Number(slot) === 1,
  render: (stored) => stored,
  json: boolJson,
  filter: {
    kind: 'bool',
    operators: ['=', '!=', '<>'],
    operand(raw) {
      const b = parseBool(raw);
      return b.ok ? accept(b.value ? '1' : '0') : b;
    },
  },
};
