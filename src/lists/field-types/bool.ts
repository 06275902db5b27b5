import { accept, reject, type FieldType, type Parsed } from './fieldType.js';

const TRUE_FORMS = new Set<unknown>([true, 'true', 1, '1']);
const FALSE_FORMS = new Set<unknown>([false, 'false', 0, '0']);

/** getListItems: `true`, `false`, `"true"`, `"false"`, `1`, `0` (and "1"/"0", as GET sends them). */
export function parseBool(input: unknown): Parsed<boolean> {
  if (TRUE_FORMS.has(input)) return accept(true);
  if (FALSE_FORMS.has(input)) return accept(false);
  return reject('must be true or false');
}

/** `bool`: stored as a JSON boolean; its numeric slot holds 1/0, so false sorts first. */
export const boolType: FieldType = {
  name: 'bool',
  slotFamily: 'numeric',
  parse: parseBool,
  toSlot: (stored) => (stored === true ? '1' : '0'),
  render: (stored) => stored,
  filter: {
    kind: 'bool',
    operators: ['=', '!=', '<>'],
    operand(raw) {
      const b = parseBool(raw);
      return b.ok ? accept(b.value ? '1' : '0') : b;
    },
  },
};
